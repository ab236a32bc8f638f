import { beforeAll, describe, expect, it } from "vitest";
import * as tokensRoute from "@/app/api/tokens/route";
import * as tokenRoute from "@/app/api/tokens/[tokenId]/route";
import * as projectRoute from "@/app/api/projects/[projectId]/route";
import * as projectsRoute from "@/app/api/projects/route";
import * as settingsRoute from "@/app/api/projects/[projectId]/settings/route";
import * as nextTasksRoute from "@/app/api/projects/[projectId]/tasks/next/route";
import * as adminUsersRoute from "@/app/api/admin/users/route";
import * as meRoute from "@/app/api/me/route";
import { db } from "../db";
import { createTestProject } from "../projects/test-projects";
import { createTestUser, requestAs, requestWithToken, routeContext } from "../http/test-requests";
import { hashToken } from "./tokens";
import { resetPassword } from "./users";

type User = Awaited<ReturnType<typeof createTestUser>>;
let fixture: Awaited<ReturnType<typeof createTestProject>>;

beforeAll(async () => {
  fixture = await createTestProject({ n: 12 });
});

/** A token made through POST /api/tokens with the user's session, as the tokens page does. */
async function makeToken(user: User, scope: "read" | "label" | "write", extra: Record<string, unknown> = {}) {
  const response = await tokensRoute.POST(await requestAs(user, "/api/tokens", { method: "POST", json: { name: `${scope} script`, scope, ...extra } }), routeContext());
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string; token: string; prefix: string; scope: string; expiresAt: string | null };
}

const projectUrl = () => `http://localhost:3000/api/projects/${fixture.projectId}`;
const projectParams = () => routeContext({ projectId: fixture.projectId });
const getProject = async (token: string) => projectRoute.GET(await requestWithToken(token, projectUrl()), projectParams());
const patchSettings = async (token: string, headers: Record<string, string> = {}) =>
  settingsRoute.PATCH(await requestWithToken(token, `${projectUrl()}/settings`, { method: "PATCH", json: { guidelines: `set by a token ${Math.random()}` }, headers }), projectParams());
const nextTasks = async (token: string) => nextTasksRoute.POST(await requestWithToken(token, `${projectUrl()}/tasks/next?count=1`, { method: "POST" }), projectParams());
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe("personal access tokens", () => {
  it("shows the token once and stores only its SHA-256; the list carries neither", async () => {
    const made = await makeToken(fixture.owner, "read");
    expect(made.token).toMatch(new RegExp(`^cereal_${made.prefix}_[A-Za-z0-9_-]{43}$`));
    const row = await db().accessToken.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.tokenHash).toBe(hashToken(made.token));
    // the secret is the last 43 characters (base64url, which may itself hold "_")
    expect(JSON.stringify(row)).not.toContain(made.token.slice(-43));
    const list = await tokensRoute.GET(await requestAs(fixture.owner, "/api/tokens"), routeContext());
    const { tokens } = (await list.json()) as { tokens: Record<string, unknown>[] };
    const listed = tokens.find((t) => t.id === made.id)!;
    expect(listed).toMatchObject({ prefix: made.prefix, scope: "read", name: "read script", lastUsedAt: null, revokedAt: null, expiresAt: null });
    expect(Object.keys(listed)).not.toContain("token");
    expect(Object.keys(listed)).not.toContain("tokenHash");
  });

  it("refuses bad input with what to fix", async () => {
    const response = await tokensRoute.POST(await requestAs(fixture.owner, "/api/tokens", { method: "POST", json: { name: "x", scope: "admin", expiresInDays: 0 } }), routeContext());
    expect(response.status).toBe(400);
    const { message } = await errorOf(response);
    expect(message).toMatch(/scope: Scope must be read, label or write/);
    expect(message).toMatch(/expiresInDays/);
  });

  it("sets the expiry from expiresInDays", async () => {
    const before = Date.now();
    const made = await makeToken(fixture.owner, "read", { expiresInDays: 30 });
    const days = (new Date(made.expiresAt!).getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(30);
    expect(days).toBeLessThan(30.01);
  });

  it("authenticates by the token alone: a write token acts as its user from any origin, with no cookie", async () => {
    const { token, id } = await makeToken(fixture.owner, "write");
    const response = await patchSettings(token, { origin: "http://elsewhere.example" });
    expect(response.status).toBe(200);
    const me = await meRoute.GET(await requestWithToken(token, "/api/me"), routeContext());
    expect(((await me.json()) as { user: { id: string } }).user.id).toBe(fixture.owner.id);
    expect((await db().accessToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).not.toBeNull();
  });

  it("never falls back to the cookie: a session cookie beside a bad token is a 401", async () => {
    const request = await requestAs(fixture.owner, projectUrl(), { headers: { authorization: "Bearer not-a-token" } });
    const response = await projectRoute.GET(request, projectParams());
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toMatch(/not a Cereal Studio access token/);
  });

  it("a read token reads but gets 403 on every change, naming the scope it needs", async () => {
    const { token } = await makeToken(fixture.owner, "read");
    expect((await getProject(token)).status).toBe(200);
    const patch = await patchSettings(token);
    expect(patch.status).toBe(403);
    expect((await errorOf(patch)).message).toMatch(/read scope.*write scope/);
    const next = await nextTasks(token);
    expect(next.status).toBe(403);
    expect((await errorOf(next)).message).toMatch(/label or write scope/);
  });

  it("a label token reads and answers tasks but changes nothing else", async () => {
    const { token } = await makeToken(fixture.annotator, "label");
    expect((await getProject(token)).status).toBe(200);
    const next = await nextTasks(token);
    expect(next.status).toBe(200);
    const patch = await patchSettings((await makeToken(fixture.owner, "label")).token);
    expect(patch.status).toBe(403);
    expect((await errorOf(patch)).message).toMatch(/label scope.*write scope/);
  });

  it("never exceeds the user's own rights: an annotator's write token is refused owner routes", async () => {
    const { token } = await makeToken(fixture.annotator, "write");
    const response = await patchSettings(token);
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toMatch(/owner/);
  });

  it("refuses token and user management to every token, an administrator's write token included", async () => {
    const admin = await createTestUser("ADMIN");
    const { token, id } = await makeToken(admin, "write");
    for (const response of [
      await tokensRoute.GET(await requestWithToken(token, "/api/tokens"), routeContext()),
      await tokensRoute.POST(await requestWithToken(token, "/api/tokens", { method: "POST", json: { name: "more", scope: "write" } }), routeContext()),
      await tokenRoute.DELETE(await requestWithToken(token, `/api/tokens/${id}`, { method: "DELETE" }), routeContext({ tokenId: id })),
      await adminUsersRoute.GET(await requestWithToken(token, "/api/admin/users"), routeContext()),
    ]) {
      expect(response.status).toBe(403);
      expect((await errorOf(response)).message).toMatch(/sign in to the app/);
    }
    expect(await db().accessToken.count({ where: { userId: admin.id } })).toBe(1);
  });

  it("applies a role change and a removal from the project at the next request", async () => {
    const researcher = await createTestUser("RESEARCHER");
    await db().projectMember.create({ data: { projectId: fixture.projectId, userId: researcher.id, role: "ANNOTATOR" } });
    const { token } = await makeToken(researcher, "write");
    const createProject = async () => projectsRoute.POST(await requestWithToken(token, "/api/projects", { method: "POST", json: {} }), routeContext());
    // a researcher passes the role check and reaches the body check (an upload is multipart)
    expect((await createProject()).status).toBe(415);
    await db().user.update({ where: { id: researcher.id }, data: { role: "ANNOTATOR" } });
    expect((await createProject()).status).toBe(403);

    expect((await getProject(token)).status).toBe(200);
    await db().projectMember.deleteMany({ where: { projectId: fixture.projectId, userId: researcher.id } });
    const response = await getProject(token);
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toMatch(/not a member/);
  });

  it("a revoked token is a 401 at once, and only its owner can revoke it", async () => {
    const { token, id } = await makeToken(fixture.owner, "read");
    const other = await tokenRoute.DELETE(await requestAs(fixture.annotator, `/api/tokens/${id}`, { method: "DELETE" }), routeContext({ tokenId: id }));
    expect(other.status).toBe(404);
    expect((await getProject(token)).status).toBe(200);
    const revoked = await tokenRoute.DELETE(await requestAs(fixture.owner, `/api/tokens/${id}`, { method: "DELETE" }), routeContext({ tokenId: id }));
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { revokedAt: string | null }).revokedAt).not.toBeNull();
    const response = await getProject(token);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toMatch(/revoked/);
  });

  it("an expired token is a 401 that says when it expired", async () => {
    const { token, id } = await makeToken(fixture.owner, "read", { expiresInDays: 1 });
    expect((await getProject(token)).status).toBe(200);
    await db().accessToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await getProject(token);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toMatch(/expired on/);
  });

  it("a password reset revokes the user's tokens; deleting the user deletes them", async () => {
    const admin = await createTestUser("ADMIN");
    const user = await createTestUser("RESEARCHER");
    const { token } = await makeToken(user, "write");
    expect((await meRoute.GET(await requestWithToken(token, "/api/me"), routeContext())).status).toBe(200);
    await resetPassword({ id: admin.id, email: admin.email, name: admin.name, role: "ADMIN" }, user.id, { password: "a-new-password" });
    expect((await meRoute.GET(await requestWithToken(token, "/api/me"), routeContext())).status).toBe(401);
    expect((await db().accessToken.findFirstOrThrow({ where: { userId: user.id } })).revokedAt).not.toBeNull();

    const second = await createTestUser("RESEARCHER");
    const made = await makeToken(second, "read");
    await db().user.delete({ where: { id: second.id } });
    expect(await db().accessToken.count({ where: { id: made.id } })).toBe(0);
    const response = await meRoute.GET(await requestWithToken(made.token, "/api/me"), routeContext());
    expect(response.status).toBe(401);
  });

  it("throttles wrong secrets per prefix: past 10 failures even the right token waits", async () => {
    const { token, prefix } = await makeToken(fixture.owner, "read");
    const wrong = `cereal_${prefix}_${"A".repeat(43)}`;
    for (let i = 0; i < 10; i++) expect((await getProject(wrong)).status).toBe(401);
    expect((await getProject(token)).status).toBe(200);
    expect((await getProject(wrong)).status).toBe(401);
    const blocked = await getProject(token);
    expect(blocked.status).toBe(429);
    expect((await errorOf(blocked)).message).toMatch(/Too many failed requests with this token. Wait 30 s/);
    // another token of the same user is not affected
    expect((await getProject((await makeToken(fixture.owner, "read")).token)).status).toBe(200);
  });
});
