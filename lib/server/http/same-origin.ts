import { forbidden } from "../errors";

/**
 * The CSRF rule for cookie-authenticated, state-changing requests. SameSite=Lax cookies still go
 * with requests from another port or a sibling subdomain (same site), so the browser's Origin
 * (or Referer) must name this app: the origin the request was sent to (Host, or the
 * X-Forwarded-Host/-Proto that bin/start.ts lets through only from trusted proxies), the public
 * URL (NEXTAUTH_URL), or one listed in CEREAL_ALLOWED_ORIGINS.
 */
export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function allowedOrigins(request: Request, env: NodeJS.ProcessEnv = process.env): Set<string> {
  const url = new URL(request.url);
  const host = request.headers.get("x-forwarded-host")?.split(",")[0].trim() || request.headers.get("host") || url.host;
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0].trim() || url.protocol.replace(/:$/, "");
  const origins = new Set([`${proto}://${host}`.toLowerCase()]);
  const listed = [env.NEXTAUTH_URL ?? "", ...(env.CEREAL_ALLOWED_ORIGINS ?? "").split(",")];
  for (const entry of listed) {
    const origin = originOf(entry.trim());
    if (origin) origins.add(origin);
  }
  return origins;
}

function originOf(value: string | null): string | null {
  if (!value || value === "null") return null;
  try {
    const { origin } = new URL(value);
    return origin === "null" ? null : origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Throws 403 unless the request comes from one of this app's pages. A request that names no
 * source at all (no Origin, Referer or Sec-Fetch-Site) is not from a browser, which always sends
 * Origin on a POST, so it cannot ride on a visitor's cookie: scripts and curl keep working.
 */
export function assertSameOrigin(request: Request, env: NodeJS.ProcessEnv = process.env): void {
  const origin = request.headers.get("origin");
  const referer = request.headers.get("referer");
  const fetchSite = request.headers.get("sec-fetch-site");
  if (origin === null && referer === null && (fetchSite === null || fetchSite === "same-origin" || fetchSite === "none")) return;
  const source = originOf(origin ?? referer);
  if (source && allowedOrigins(request, env).has(source)) return;
  throw forbidden(
    `Refused a cross-site request from ${source ?? "an unnamed page"}: changes are only accepted from this app's own pages. If the app is reached under another address, list it in CEREAL_ALLOWED_ORIGINS.`,
  );
}
