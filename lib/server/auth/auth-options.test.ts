import NextAuth from "next-auth";
import { afterEach, describe, expect, it } from "vitest";
import { authOptions } from "./auth-options";
import { createTestUser } from "../http/test-requests";

/** Issue 19: when the public URL is https, next-auth's cookies are Secure (and __Secure-/__Host- prefixed). */
const publicUrl = process.env.NEXTAUTH_URL;
afterEach(() => {
  if (publicUrl === undefined) delete process.env.NEXTAUTH_URL;
  else process.env.NEXTAUTH_URL = publicUrl;
});

/** next-auth's handler as the pages API calls it (the app router's needs Next's request scope); returns its Set-Cookie lines. */
async function call(action: string[], method: string, cookies: Record<string, string>, body?: Record<string, string>) {
  const headers: Record<string, string | string[]> = {};
  let sent: unknown;
  const res = {
    status: () => res,
    setHeader: (k: string, v: string | string[]) => ((headers[k.toLowerCase()] = v), res),
    getHeader: (k: string) => headers[k.toLowerCase()],
    end: () => res,
    send: (b: unknown) => ((sent = b), res),
    json: (b: unknown) => ((sent = b), res),
  };
  await NextAuth({ query: { nextauth: action }, method, headers: { host: "x" }, cookies, body } as never, res as never, authOptions());
  return { setCookie: [headers["set-cookie"] ?? []].flat(), body: sent as Record<string, string> };
}

async function signInCookies(url: string) {
  process.env.NEXTAUTH_URL = url;
  const user = await createTestUser("ANNOTATOR", "right-password");
  const csrf = await call(["csrf"], "GET", {});
  const [name, value] = csrf.setCookie[0].split(";")[0].split("=");
  const signIn = await call(["callback", "credentials"], "POST", { [name]: decodeURIComponent(value) }, { email: user.email, password: "right-password", csrfToken: csrf.body.csrfToken });
  return [...csrf.setCookie, ...signIn.setCookie];
}

describe("session cookies", () => {
  it("are Secure with __Secure-/__Host- names when NEXTAUTH_URL is https", async () => {
    const cookies = await signInCookies("https://cereal.example.org");
    const session = cookies.find((c) => c.includes("next-auth.session-token="));
    expect(session).toMatch(/^__Secure-next-auth\.session-token=[^;]+;.*HttpOnly.*; Secure; SameSite=Lax/i);
    expect(cookies[0]).toMatch(/^__Host-next-auth\.csrf-token=.*; Secure/i);
  });

  it("are plain over http (a LAN or localhost start), which browsers would otherwise drop", async () => {
    const cookies = await signInCookies("http://localhost:3000");
    const session = cookies.find((c) => c.includes("next-auth.session-token="));
    expect(session).toMatch(/^next-auth\.session-token=[^;]+;.*HttpOnly/i);
    expect(session).not.toMatch(/Secure/i);
  });
});
