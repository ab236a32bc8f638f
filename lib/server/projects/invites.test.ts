import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as inviteRoute from "@/app/api/invites/[token]/route";
import * as projectRoute from "@/app/api/projects/[projectId]/route";
import * as invitesRoute from "@/app/api/projects/[projectId]/invites/route";
import * as memberRoute from "@/app/api/projects/[projectId]/members/[userId]/route";
import * as membersRoute from "@/app/api/projects/[projectId]/members/route";
import { db } from "../db";
import { verifyPassword } from "../auth/passwords";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { createTestProject } from "./test-projects";

type User = { id: string; sessionVersion: number };

async function createInvite(owner: User, projectId: string, json: unknown = {}) {
  const r = await invitesRoute.POST(await requestAs(owner, `/api/projects/${projectId}/invites`, { method: "POST", json }), routeContext({ projectId }));
  expect(r.status).toBe(200);
  return (await r.json()).invite as { id: string; path: string; expiresAt: string };
}
const tokenOf = (invitePath: string) => invitePath.replace("/invite/", "");
const open = async (token: string) => inviteRoute.GET(await requestAs(null, `/api/invites/${token}`), routeContext({ token }));
const accept = async (user: User | null, token: string, json: unknown = {}) =>
  inviteRoute.POST(await requestAs(user, `/api/invites/${token}`, { method: "POST", json }), routeContext({ token }));
const members = async (user: User, projectId: string) => membersRoute.GET(await requestAs(user, `/api/projects/${projectId}/members`), routeContext({ projectId }));

describe("invites", () => {
  it("end to end: link created, opened, accepted by a new user who becomes an annotator; the link then refuses", async () => {
    const { projectId, owner } = await createTestProject({}, "Birds");
    const invite = await createInvite(owner, projectId);
    expect(invite.path).toMatch(/^\/invite\/[\w-]{43}$/);
    expect(new Date(invite.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.99 * 86_400_000);
    const token = tokenOf(invite.path);
    const stored = await db().invite.findUniqueOrThrow({ where: { id: invite.id } });
    expect(stored.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(token);

    const opened = await open(token);
    expect(opened.status).toBe(200);
    expect((await opened.json()).invite).toMatchObject({ projectName: "Birds", email: null });

    const missing = await accept(null, token, { name: "Nora", email: "nora@example.org" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toBe("Enter your name, email and a password to create your account.");

    const accepted = await accept(null, token, { name: "Nora", email: "Nora@Example.org", password: "nora-password" });
    expect(accepted.status).toBe(200);
    expect((await accepted.json()).accepted).toEqual({ projectId, projectName: "Birds", createdAccount: true });
    const nora = await db().user.findUniqueOrThrow({ where: { email: "nora@example.org" } });
    expect(nora).toMatchObject({ name: "Nora", role: "ANNOTATOR" });
    expect(await verifyPassword(nora.passwordHash, "nora-password")).toBe(true);

    const list = (await (await members(owner, projectId)).json()).members;
    expect(list.find((m: { email: string }) => m.email === "nora@example.org")).toMatchObject({ name: "Nora", role: "ANNOTATOR" });
    const project = await projectRoute.GET(await requestAs(nora, `/api/projects/${projectId}`), routeContext({ projectId }));
    expect((await project.json()).project.role).toBe("ANNOTATOR");

    const again = await accept(null, token, { name: "Eve", email: "eve@example.org", password: "eve-password" });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe("This invite link was already used; ask the project owner for a new one.");
    expect(await db().user.count({ where: { email: "eve@example.org" } })).toBe(0);
    expect((await open(token)).status).toBe(409);
  });

  it("a signed-in user accepts and joins; an expired link and an unknown link are refused", async () => {
    const { projectId, owner } = await createTestProject();
    const researcher = await createTestUser("RESEARCHER");
    const invite = await createInvite(owner, projectId);
    const r = await accept(researcher, tokenOf(invite.path));
    expect(r.status).toBe(200);
    expect((await r.json()).accepted.createdAccount).toBe(false);
    expect(await db().projectMember.findUniqueOrThrow({ where: { projectId_userId: { projectId, userId: researcher.id } } })).toMatchObject({ role: "ANNOTATOR" });

    const expired = await createInvite(owner, projectId);
    await db().invite.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const late = await accept(null, tokenOf(expired.path), { name: "Late", email: "late@example.org", password: "late-password" });
    expect(late.status).toBe(400);
    expect((await late.json()).error.message).toMatch(/^This invite link expired on \d{4}-\d\d-\d\d; ask the project owner for a new one\.$/);
    expect(await db().user.count({ where: { email: "late@example.org" } })).toBe(0);

    const unknown = await accept(null, "not-a-token", { name: "X", email: "x@example.org", password: "x-password" });
    expect(unknown.status).toBe(404);
  });

  it("an invite for an email takes that email; an existing account must sign in first", async () => {
    const { projectId, owner } = await createTestProject();
    const existing = await createTestUser("ANNOTATOR");
    const forExisting = await createInvite(owner, projectId, { email: existing.email });
    const r = await accept(null, tokenOf(forExisting.path), { name: "Someone", password: "some-password" });
    expect(r.status).toBe(409);
    expect((await r.json()).error.message).toBe(`An account with ${existing.email} exists already; sign in, then open the invite link again.`);
    expect((await db().invite.findUniqueOrThrow({ where: { id: forExisting.id } })).acceptedAt).toBeNull();

    const someoneElse = await createTestUser("RESEARCHER");
    const wrongUser = await accept(someoneElse, tokenOf(forExisting.path));
    expect(wrongUser.status).toBe(403);
    expect((await wrongUser.json()).error.message).toBe(`This invite is for ${existing.email}; you are signed in as ${someoneElse.email}.`);
    const rightUser = await accept(existing, tokenOf(forExisting.path));
    expect(rightUser.status).toBe(200);
    expect(await db().projectMember.count({ where: { projectId, userId: existing.id, role: "ANNOTATOR" } })).toBe(1);
  });

  it("owners list and revoke open invites; annotators and outsiders cannot create them", async () => {
    const { projectId, owner, annotator, outsider } = await createTestProject();
    const invite = await createInvite(owner, projectId, { email: "pending@example.org" });
    const list = await invitesRoute.GET(await requestAs(owner, `/api/projects/${projectId}/invites`), routeContext({ projectId }));
    expect((await list.json()).invites).toEqual([expect.objectContaining({ id: invite.id, email: "pending@example.org" })]);
    for (const user of [annotator, outsider]) {
      const r = await invitesRoute.POST(await requestAs(user, `/api/projects/${projectId}/invites`, { method: "POST", json: {} }), routeContext({ projectId }));
      expect(r.status).toBe(403);
    }
    const { DELETE } = await import("@/app/api/projects/[projectId]/invites/[inviteId]/route");
    expect((await DELETE(await requestAs(owner, "/x", { method: "DELETE" }), routeContext({ projectId, inviteId: invite.id }))).status).toBe(200);
    expect((await open(tokenOf(invite.path))).status).toBe(404);
  });
});

describe("members", () => {
  it("the owner adds an existing user by email and removes them; never the last owner", async () => {
    const { projectId, owner, outsider } = await createTestProject();
    const add = async (json: unknown) => membersRoute.POST(await requestAs(owner, `/api/projects/${projectId}/members`, { method: "POST", json }), routeContext({ projectId }));
    const added = await add({ email: outsider.email.toUpperCase() });
    expect(added.status).toBe(200);
    expect((await added.json()).members.map((m: { id: string; role: string }) => [m.id, m.role])).toContainEqual([outsider.id, "ANNOTATOR"]);
    expect((await add({ email: outsider.email })).status).toBe(409);
    const unknown = await add({ email: "ghost@example.org" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toBe("No account uses ghost@example.org; create an invite link and send it to them instead.");

    const remove = async (user: User, userId: string) => memberRoute.DELETE(await requestAs(user, "/x", { method: "DELETE" }), routeContext({ projectId, userId }));
    expect((await remove(outsider, owner.id)).status).toBe(403);
    expect((await remove(owner, outsider.id)).status).toBe(200);
    expect(await db().projectMember.count({ where: { projectId, userId: outsider.id } })).toBe(0);
    const last = await remove(owner, owner.id);
    expect(last.status).toBe(409);
    expect((await last.json()).error.message).toBe("This is the project's last owner; add another owner first, or delete the project.");
  });
});
