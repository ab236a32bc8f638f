import { describe, expect, it } from "vitest";
import * as usersRoute from "@/app/api/admin/users/route";
import * as inviteRoute from "@/app/api/invites/[token]/route";
import * as projectsRoute from "@/app/api/projects/route";
import * as clusteringsRoute from "@/app/api/projects/[projectId]/clusterings/route";
import * as candidatesRoute from "@/app/api/projects/[projectId]/clusterings/candidates/route";
import * as simulationsRoute from "@/app/api/projects/[projectId]/simulations/route";
import { db } from "../db";
import { JSON_BODY_LIMIT_BYTES, readBodyText } from "./request-body";
import { createTestProject } from "../projects/test-projects";
import { createTestUser, requestAs, routeContext } from "./test-requests";

const MB = 1024 * 1024;

/** A body of `bytes` in 64 kB chunks, produced only as the reader pulls; `pulled()` says how much was. */
function meteredBody(bytes: number, fill = "[") {
  let pulled = 0;
  const chunk = new TextEncoder().encode(fill.repeat(64 * 1024));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= bytes) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { body, pulled: () => pulled };
}

const streamed = (url: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  new Request(new URL(url, "http://localhost"), { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("request bodies (issue 19, findings 2 and 3)", () => {
  it("stops reading a JSON body at the 1 MB cap: a 10 MB body is refused with 413 after about 1 MB", async () => {
    const flood = meteredBody(10 * MB);
    await expect(readBodyText(streamed("/x", flood.body, { "content-type": "application/json" }))).rejects.toMatchObject({ status: 413 });
    expect(flood.pulled()).toBeLessThanOrEqual(JSON_BODY_LIMIT_BYTES + 128 * 1024);

    // through a route: an administrator's chunked 10 MB nested array is a 413, never parsed
    const admin = await createTestUser("ADMIN");
    const viaRoute = meteredBody(10 * MB);
    const request = await requestAs(admin, "/api/admin/users", { method: "POST", body: viaRoute.body, headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit);
    const response = await usersRoute.POST(request, routeContext());
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe("payload_too_large");
    expect(viaRoute.pulled()).toBeLessThanOrEqual(JSON_BODY_LIMIT_BYTES + 128 * 1024);
  });

  it("refuses a declared Content-Length over the cap before reading a byte", async () => {
    const flood = meteredBody(10 * MB);
    const request = streamed("/x", flood.body, { "content-type": "application/json", "content-length": String(10 * MB) });
    await expect(readBodyText(request)).rejects.toMatchObject({ status: 413 });
    expect(flood.pulled()).toBe(0);
  });

  it("reads a body under the cap whole", async () => {
    const text = JSON.stringify({ names: Array.from({ length: 5000 }, (_, i) => `name-${i}`) });
    expect(await readBodyText(new Request("http://localhost/x", { method: "POST", body: text }))).toBe(text);
  });

  it("checks an invite token before reading any byte of the body", async () => {
    const flood = meteredBody(10 * MB);
    const response = await inviteRoute.POST(streamed("/api/invites/not-a-token", flood.body, { "content-type": "application/json" }), routeContext({ token: "not-a-token" }));
    expect(response.status).toBe(404);
    expect(flood.pulled()).toBe(0);
  });

  it("answers a multipart body without a boundary, or with an empty one, with 400 on both upload routes", async () => {
    const { projectId, owner } = await createTestProject({ n: 4 });
    const ownerUser = await db().user.findUniqueOrThrow({ where: { id: owner.id } });
    for (const contentType of ["multipart/form-data", "multipart/form-data; boundary="]) {
      const body = "--x\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nx\r\n--x--\r\n";
      const upload = await projectsRoute.POST(await requestAs(ownerUser, "/api/projects", { method: "POST", body, headers: { "content-type": contentType } }), routeContext());
      expect(upload.status, contentType).toBe(400);
      expect((await upload.json()).error.message).toMatch(/boundary/);
      const clustering = await clusteringsRoute.POST(
        await requestAs(ownerUser, `/api/projects/${projectId}/clusterings`, { method: "POST", body, headers: { "content-type": contentType } }),
        routeContext({ projectId }),
      );
      expect(clustering.status, contentType).toBe(400);
    }
  });
});

describe("owner-only routes check the owner before the input (issue 19, finding 6)", () => {
  it("an annotator gets 403, not 400, for a bad simulation, candidate or clustering upload", async () => {
    const { projectId, annotator } = await createTestProject({ n: 4 });
    const bad = { budget: "lots", k: -1 };
    const simulation = await simulationsRoute.POST(await requestAs(annotator, `/api/projects/${projectId}/simulations`, { method: "POST", json: bad }), routeContext({ projectId }));
    const candidate = await candidatesRoute.POST(await requestAs(annotator, `/api/projects/${projectId}/clusterings/candidates`, { method: "POST", json: bad }), routeContext({ projectId }));
    const upload = await clusteringsRoute.POST(
      await requestAs(annotator, `/api/projects/${projectId}/clusterings`, { method: "POST", body: "x", headers: { "content-type": "multipart/form-data" } }),
      routeContext({ projectId }),
    );
    for (const response of [simulation, candidate, upload]) {
      expect(response.status).toBe(403);
      expect((await response.json()).error.message).toBe("Only the project's owner can do this.");
    }
  });
});
