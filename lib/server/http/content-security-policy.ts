/**
 * The Content-Security-Policy of every page (proxy.ts sets it with a fresh nonce per request;
 * Next puts the nonce on its own scripts). Scripts run only from this origin with the nonce.
 * Styles allow 'unsafe-inline': React renders style attributes on the server (bars, swatches,
 * positions) and the chart library (recharts) sets them on its SVG, and a nonce cannot cover
 * attributes. Development adds what `next dev` needs: eval for React's debugging, a websocket.
 */
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
