import { beforeAll, describe, expect, it } from "vitest";
import * as projectRoute from "@/app/api/projects/[projectId]/route";
import * as clusteringsRoute from "@/app/api/projects/[projectId]/clusterings/route";
import * as inviteRoute from "@/app/api/projects/[projectId]/invites/[inviteId]/route";
import * as invitesRoute from "@/app/api/projects/[projectId]/invites/route";
import * as imageRoute from "@/app/api/projects/[projectId]/items/[index]/image/route";
import * as itemsRoute from "@/app/api/projects/[projectId]/items/route";
import * as memberRoute from "@/app/api/projects/[projectId]/members/[userId]/route";
import * as membersRoute from "@/app/api/projects/[projectId]/members/route";
import * as settingsRoute from "@/app/api/projects/[projectId]/settings/route";
import type { Handler } from "./route";
import { requestAs, routeContext } from "./test-requests";
import { createTestProject } from "../projects/test-projects";

/**
 * Every project route of issue 6 by role (route-auth.test.ts covers 401): owner-only routes
 * answer 403 to an annotator of the project and to a non-member; member routes answer an
 * annotator and 403 to a non-member.
 */
describe("project routes by role", () => {
  let fixture: Awaited<ReturnType<typeof createTestProject>>;
  beforeAll(async () => {
    fixture = await createTestProject({ n: 4, items: "image" });
  });
  const form = () => {
    const f = new FormData();
    f.append("name", "x");
    return f;
  };
  // the member routes' bodies and ids name the fixture's users: built when the test runs
  const ownerOnly: [string, Handler, string, () => Record<string, string>, () => RequestInit & { json?: unknown }][] = [
    ["GET settings", settingsRoute.GET, "GET", () => ({}), () => ({})],
    ["PATCH settings", settingsRoute.PATCH, "PATCH", () => ({}), () => ({ json: { paused: true } })],
    ["GET members", membersRoute.GET, "GET", () => ({}), () => ({})],
    ["POST members", membersRoute.POST, "POST", () => ({}), () => ({ json: { email: fixture.outsider.email } })],
    ["DELETE member", memberRoute.DELETE, "DELETE", () => ({ userId: fixture.owner.id }), () => ({})],
    ["GET invites", invitesRoute.GET, "GET", () => ({}), () => ({})],
    ["POST invites", invitesRoute.POST, "POST", () => ({}), () => ({ json: {} })],
    ["DELETE invite", inviteRoute.DELETE, "DELETE", () => ({ inviteId: "any" }), () => ({})],
    ["POST clusterings", clusteringsRoute.POST, "POST", () => ({}), () => ({ body: form() })],
    ["GET items", itemsRoute.GET, "GET", () => ({}), () => ({})],
    ["DELETE project", projectRoute.DELETE, "DELETE", () => ({}), () => ({ json: { confirmName: "Test project" } })],
  ];
  for (const [name, handler, method, params, init] of ownerOnly)
    it(`${name}: 403 for an annotator and for a non-member`, async () => {
      const { projectId, annotator, outsider } = fixture;
      for (const user of [annotator, outsider]) {
        const response = await handler(await requestAs(user, `/api/projects/${projectId}`, { method, ...init() }), routeContext({ projectId, ...params() }));
        expect(response.status, `${name} as ${user === annotator ? "annotator" : "outsider"}`).toBe(403);
      }
    });

  it("member routes: the annotator is served, a non-member gets 403", async () => {
    const { projectId, annotator, outsider } = fixture;
    for (const [handler, params] of [
      [projectRoute.GET, {}],
      [imageRoute.GET, { index: "1" }],
    ] as const) {
      const ok = await handler(await requestAs(annotator, `/api/projects/${projectId}`), routeContext({ projectId, ...params }));
      expect(ok.status).toBe(200);
      const refused = await handler(await requestAs(outsider, `/api/projects/${projectId}`), routeContext({ projectId, ...params }));
      expect(refused.status).toBe(403);
    }
  });
});
