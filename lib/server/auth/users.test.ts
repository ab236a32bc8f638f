import { describe, expect, it } from "vitest";
import * as usersRoute from "@/app/api/admin/users/route";
import * as roleRoute from "@/app/api/admin/users/[userId]/route";
import * as passwordRoute from "@/app/api/admin/users/[userId]/password/route";
import * as meRoute from "@/app/api/me/route";
import { db } from "../db";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { signInWithPassword } from "./users";

describe("user administration", () => {
  it("lets an admin create a user who can then sign in", async () => {
    const admin = await createTestUser("ADMIN");
    const response = await usersRoute.POST(
      await requestAs(admin, "/api/admin/users", { method: "POST", json: { email: " New@Example.org ", name: "New", password: "long-enough", role: "RESEARCHER" } }),
      routeContext(),
    );
    expect(response.status).toBe(200);
    const { user } = await response.json();
    expect(user).toMatchObject({ email: "new@example.org", role: "RESEARCHER" });
    expect(user.passwordHash).toBeUndefined();
    const signedIn = await signInWithPassword("new@example.org", "long-enough", "10.0.0.1");
    expect(signedIn.id).toBe(user.id);
  });

  it("answers 409 for a duplicate email and 400 with the reason for bad input", async () => {
    const admin = await createTestUser("ADMIN");
    const body = { email: "dup@example.org", name: "A", password: "long-enough" };
    await usersRoute.POST(await requestAs(admin, "/api/admin/users", { method: "POST", json: body }), routeContext());
    const again = await usersRoute.POST(await requestAs(admin, "/api/admin/users", { method: "POST", json: body }), routeContext());
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("conflict");
    const bad = await usersRoute.POST(await requestAs(admin, "/api/admin/users", { method: "POST", json: { email: "nope", name: "", password: "short" } }), routeContext());
    expect(bad.status).toBe(400);
    const { error } = await bad.json();
    expect(error.message).toContain("email");
    expect(error.message).toContain("at least 8 characters");
  });

  it("forbids user management to non-admins", async () => {
    for (const role of ["RESEARCHER", "ANNOTATOR"] as const) {
      const user = await createTestUser(role);
      const response = await usersRoute.GET(await requestAs(user, "/api/admin/users"), routeContext());
      expect(response.status).toBe(403);
    }
  });

  it("changes a role, but never the admin's own", async () => {
    const admin = await createTestUser("ADMIN");
    const other = await createTestUser("ANNOTATOR");
    const ok = await roleRoute.PATCH(await requestAs(admin, "/x", { method: "PATCH", json: { role: "RESEARCHER" } }), routeContext({ userId: other.id }));
    expect((await ok.json()).user.role).toBe("RESEARCHER");
    const self = await roleRoute.PATCH(await requestAs(admin, "/x", { method: "PATCH", json: { role: "ANNOTATOR" } }), routeContext({ userId: admin.id }));
    expect(self.status).toBe(409);
    const missing = await roleRoute.PATCH(await requestAs(admin, "/x", { method: "PATCH", json: { role: "ADMIN" } }), routeContext({ userId: "nobody" }));
    expect(missing.status).toBe(404);
  });

  it("ends the user's sessions when an admin resets the password", async () => {
    const admin = await createTestUser("ADMIN");
    const user = await createTestUser("RESEARCHER");
    const before = await requestAs(user, "/api/me");
    expect((await meRoute.GET(before.clone(), routeContext())).status).toBe(200);
    const reset = await passwordRoute.POST(await requestAs(admin, "/x", { method: "POST", json: { password: "brand-new-pass" } }), routeContext({ userId: user.id }));
    expect(reset.status).toBe(200);
    expect((await meRoute.GET(before, routeContext())).status).toBe(401);
    await expect(signInWithPassword(user.email, "password-123", null)).rejects.toThrow("Wrong email or password.");
    expect((await signInWithPassword(user.email, "brand-new-pass", null)).id).toBe(user.id);
  });
});

describe("sign-in throttling", () => {
  it("blocks an account after repeated failures, even with the right password", async () => {
    const user = await createTestUser("ANNOTATOR", "right-password");
    for (let i = 0; i < 5; i++) await expect(signInWithPassword(user.email, "wrong", `10.1.0.${i}`)).rejects.toThrow("Wrong email or password.");
    await expect(signInWithPassword(user.email, "right-password", "10.1.0.9")).rejects.toThrow(/Too many failed sign-ins\. Wait \d+ s/);
  });

  it("blocks an address that guesses across many accounts", async () => {
    for (let i = 0; i < 21; i++) await expect(signInWithPassword(`ghost${i}@x.org`, "wrong", "10.2.0.1")).rejects.toThrow("Wrong email or password.");
    const user = await createTestUser("ANNOTATOR", "right-password");
    await expect(signInWithPassword(user.email, "right-password", "10.2.0.1")).rejects.toThrow(/Too many failed sign-ins/);
    expect((await signInWithPassword(user.email, "right-password", "10.2.0.2")).id).toBe(user.id);
  });

  it("clears an account's failures after a successful sign-in", async () => {
    const user = await createTestUser("ANNOTATOR", "right-password");
    for (let i = 0; i < 3; i++) await expect(signInWithPassword(user.email, "wrong", null)).rejects.toThrow();
    await signInWithPassword(user.email, "right-password", null);
    expect(await db().signInThrottle.findUnique({ where: { key: `email:${user.email}` } })).toBeNull();
  });
});

describe("sign-in throttling: account and address limits combined", () => {
  it("blocks an address for at most a minute however many failures it sends, while an account's block grows to 15 minutes", async () => {
    const { recordFailure, assertNotThrottled, MAX_BLOCK_MS } = await import("./sign-in-throttle");
    const now = new Date("2026-01-01T12:00:00Z");
    for (let i = 0; i < 40; i++) await recordFailure(["ip:10.3.0.1", "email:victim@x.org"], now);
    const ip = await db().signInThrottle.findUniqueOrThrow({ where: { key: "ip:10.3.0.1" } });
    const account = await db().signInThrottle.findUniqueOrThrow({ where: { key: "email:victim@x.org" } });
    expect(ip.blockedUntil!.getTime() - now.getTime()).toBe(MAX_BLOCK_MS.ip);
    expect(account.blockedUntil!.getTime() - now.getTime()).toBe(MAX_BLOCK_MS.email);
    // another user behind the same address waits one minute, not fifteen
    await expect(assertNotThrottled(["email:colleague@x.org", "ip:10.3.0.1"], new Date(now.getTime() + 30_000))).rejects.toThrow(/Wait 30 s/);
    await expect(assertNotThrottled(["email:colleague@x.org", "ip:10.3.0.1"], new Date(now.getTime() + 61_000))).resolves.toBeUndefined();
    await expect(assertNotThrottled(["email:victim@x.org", "ip:10.3.0.1"], new Date(now.getTime() + 61_000))).rejects.toThrow(/Too many failed sign-ins/);
  });
});
