import type { IncomingHttpHeaders } from "node:http";

/**
 * Who is on the other end of a connection, for the sign-in throttle. Next fills X-Forwarded-For
 * only when a request lacks it, so a client could name any address; bin/start.ts therefore
 * replaces the header with the socket's address, and takes a forwarded address only from the
 * proxies listed in CEREAL_TRUSTED_PROXIES (exact addresses, comma-separated).
 */
export function trustedProxies(env: Record<string, string | undefined> = process.env): Set<string> {
  return new Set((env.CEREAL_TRUSTED_PROXIES ?? "").split(",").map((a) => normalizeAddress(a.trim())).filter(Boolean));
}

/** "::ffff:127.0.0.1" (IPv4 on a dual-stack socket) is 127.0.0.1. */
export function normalizeAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "").toLowerCase();
}

/**
 * The client's address: the socket's, unless that is a trusted proxy; then the nearest address
 * in X-Forwarded-For (read right to left) that is not itself a trusted proxy.
 */
export function clientAddress(socketAddress: string, forwardedFor: string | string[] | undefined, trusted: Set<string>): string {
  let address = normalizeAddress(socketAddress);
  const hops = [forwardedFor ?? []].flat().join(",").split(",").map((a) => normalizeAddress(a.trim())).filter(Boolean);
  while (trusted.has(address) && hops.length) address = hops.pop()!;
  return address;
}

/**
 * Rewrites a request's forwarding headers before Next sees them: X-Forwarded-For becomes the
 * client's address alone, and X-Forwarded-Host/-Proto/-Port survive only from a trusted proxy
 * (Next then fills them from the connection).
 */
export function rewriteForwardedHeaders(headers: IncomingHttpHeaders, socketAddress: string, trusted: Set<string>): void {
  headers["x-forwarded-for"] = clientAddress(socketAddress, headers["x-forwarded-for"], trusted);
  if (!trusted.has(normalizeAddress(socketAddress))) {
    delete headers["x-forwarded-host"];
    delete headers["x-forwarded-proto"];
    delete headers["x-forwarded-port"];
  }
}
