import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createAppServer } from "./app-server";
import { authOptions } from "../auth/auth-options";
import { clientAddress, trustedProxies } from "./client-address";
import { db } from "../db";
import { createTestUser } from "./test-requests";

/**
 * Issue 19, finding 5: the sign-in throttle is keyed on the connection's address. A client that
 * sends X-Forwarded-For neither escapes a block on its real address (bypass) nor gets its failures
 * counted against the address it names (spread); only a listed proxy's header is believed.
 */
type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, unknown> }) => Promise<unknown>;
const authorize = (authOptions().providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

let server: ReturnType<typeof createAppServer> | null = null;
afterEach(() => {
  server?.close();
  server = null;
});

/** A server whose "app" signs in with next-auth's authorize, as /api/auth/callback/credentials does. */
async function signInServer(trusted: Set<string>) {
  server = createAppServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const result = await authorize({ email: url.searchParams.get("email")!, password: url.searchParams.get("password")! }, { headers: req.headers }).then(
      () => 200,
      (error: { status?: number }) => error.status ?? 500,
    );
    res.writeHead(result).end();
  }, trusted);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return (email: string, password: string, forwardedFor?: string) =>
    fetch(`http://127.0.0.1:${port}/?${new URLSearchParams({ email, password })}`, { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} }).then((r) => r.status);
}

describe("the client address", () => {
  it("is the socket's unless the socket is a listed proxy; then the nearest untrusted hop of X-Forwarded-For", () => {
    const none = trustedProxies({});
    expect(clientAddress("127.0.0.1", "10.1.2.3", none)).toBe("127.0.0.1");
    expect(clientAddress("::ffff:192.168.1.7", undefined, none)).toBe("192.168.1.7");
    const proxy = trustedProxies({ CEREAL_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.2" });
    expect(clientAddress("::ffff:127.0.0.1", "10.1.2.3", proxy)).toBe("10.1.2.3");
    // a client's own X-Forwarded-For entry sits left of what the proxies appended: it is not believed
    expect(clientAddress("127.0.0.1", "6.6.6.6, 10.1.2.3, 10.0.0.2", proxy)).toBe("10.1.2.3");
    expect(clientAddress("10.9.9.9", "10.1.2.3", proxy)).toBe("10.9.9.9");
  });
});

describe("sign-in throttle behind the app server", () => {
  it("a spoofed X-Forwarded-For neither bypasses a blocked address nor spreads failures to the address it names", async () => {
    const user = await createTestUser("ANNOTATOR", "right-password");
    const signIn = await signInServer(trustedProxies({}));
    for (let i = 0; i < 21; i++) expect(await signIn(`ghost-a${i}@x.org`, "wrong", `10.1.2.${i}`)).toBe(401);
    expect(await signIn(user.email, "right-password", "10.1.2.3")).toBe(429);
    expect(await signIn(user.email, "right-password")).toBe(429);
    const keys = (await db().signInThrottle.findMany({ where: { key: { startsWith: "ip:" } } })).map((r) => r.key);
    expect(keys).toEqual(["ip:127.0.0.1"]);
    await db().signInThrottle.deleteMany({});
  });

  it("believes X-Forwarded-For from a listed proxy, so one client behind it is blocked and another is not", async () => {
    const user = await createTestUser("ANNOTATOR", "right-password");
    const signIn = await signInServer(trustedProxies({ CEREAL_TRUSTED_PROXIES: "127.0.0.1" }));
    for (let i = 0; i < 21; i++) expect(await signIn(`ghost-b${i}@x.org`, "wrong", "10.4.0.1")).toBe(401);
    expect(await signIn(user.email, "right-password", "10.4.0.1")).toBe(429);
    expect(await signIn(user.email, "right-password", "10.4.0.2")).toBe(200);
    expect(await db().signInThrottle.findUnique({ where: { key: "ip:127.0.0.1" } })).toBeNull();
    await db().signInThrottle.deleteMany({});
  });

  it("answers a URL too large for Node's parser with a JSON 431", async () => {
    await signInServer(new Set());
    const { port } = server!.address() as AddressInfo;
    const reply = await new Promise<string>((resolve) => {
      let text = "";
      const socket = net.connect(port, "127.0.0.1", () => socket.write(`GET /${"a".repeat(100_000)} HTTP/1.1\r\nhost: localhost\r\n\r\n`));
      socket.on("data", (d) => (text += d)).on("end", () => resolve(text)).on("error", () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1.1 431/);
    expect(JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)).error.message).toMatch(/too large/);
  });
});
