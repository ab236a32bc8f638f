import dns, { type LookupAddress, type LookupOptions } from "node:dns";
import net from "node:net";

/**
 * Keeps webhooks from reaching the server's own network (SSRF): a target that resolves to a
 * loopback, private, link-local, shared, multicast or reserved address is refused unless
 * CEREAL_WEBHOOK_ALLOW_PRIVATE=1. The check runs on the address the connection is about to use
 * (a lookup function handed to the request), so a name that resolved to a public address when
 * the URL was saved cannot later point inside; an IP literal, which Node connects to without a
 * lookup, is checked before the request.
 */
const BLOCKED = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24],
  ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) BLOCKED.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["64:ff9b::", 96]] as const) BLOCKED.addSubnet(network, prefix, "ipv6");

export const privateTargetsAllowed = (env: NodeJS.ProcessEnv = process.env) => env.CEREAL_WEBHOOK_ALLOW_PRIVATE === "1";

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], "ipv4");
  return BLOCKED.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
}

export class RefusedTarget extends Error {}

const refusal = (host: string, address: string) =>
  new RefusedTarget(`${host} is ${address}, a loopback or private address; webhooks do not go there (set CEREAL_WEBHOOK_ALLOW_PRIVATE=1 to allow it).`);

/** Throws RefusedTarget for an IP-literal target in a private range (names are checked at connect time). */
export function assertLiteralTargetAllowed(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host) && isPrivateAddress(host) && !privateTargetsAllowed()) throw refusal(host, host);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that refuses private addresses: the `lookup` of every webhook request. */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const list = addresses as LookupAddress[];
    const blocked = privateTargetsAllowed() ? undefined : list.find((a) => isPrivateAddress(a.address));
    if (blocked) return callback(refusal(hostname, blocked.address), []);
    if (options.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}
