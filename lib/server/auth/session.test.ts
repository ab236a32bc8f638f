import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "../db";
import { createTestUser } from "../http/test-requests";
import { userFromSessionToken } from "./session";

const token = (user: { id: string; sessionVersion: number }, maxAge = 3600, secret = process.env.NEXTAUTH_SECRET!) => encode({ token: { uid: user.id, sv: user.sessionVersion }, secret, maxAge });

afterEach(() => void vi.useRealTimers());

describe("session tokens (decoded once per token, the user checked on every request)", () => {
  it("accepts a token on every request and still ends it at once when the user's password is reset", async () => {
    const user = await createTestUser("ANNOTATOR");
    const t = await token(user);
    expect(await userFromSessionToken(t)).toMatchObject({ id: user.id, role: "ANNOTATOR" });
    expect(await userFromSessionToken(t)).toMatchObject({ id: user.id });
    await db().user.update({ where: { id: user.id }, data: { sessionVersion: { increment: 1 } } });
    expect(await userFromSessionToken(t)).toBeNull();
    await db().user.delete({ where: { id: user.id } });
    expect(await userFromSessionToken(t)).toBeNull();
  });

  it("refuses a token once it expired, though it was accepted before", async () => {
    const user = await createTestUser("ANNOTATOR");
    const t = await token(user, 60);
    expect(await userFromSessionToken(t)).toMatchObject({ id: user.id });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 120_000);
    expect(await userFromSessionToken(t)).toBeNull();
  });

  it("refuses a token signed with another secret, and a known token once the secret changed", async () => {
    const user = await createTestUser("ANNOTATOR");
    expect(await userFromSessionToken(await token(user, 3600, "some-other-secret"))).toBeNull();
    const t = await token(user);
    expect(await userFromSessionToken(t)).toMatchObject({ id: user.id });
    const secret = process.env.NEXTAUTH_SECRET;
    process.env.NEXTAUTH_SECRET = "a-rotated-secret-for-this-test";
    try {
      expect(await userFromSessionToken(t)).toBeNull();
    } finally {
      process.env.NEXTAUTH_SECRET = secret;
    }
  });
});
