import { describe, expect, it } from "vitest";
import * as imageRoute from "@/app/api/projects/[projectId]/items/[index]/image/route";
import * as itemsRoute from "@/app/api/projects/[projectId]/items/route";
import { TINY_PNG } from "@/lib/data/test-bundles";
import { requestAs, routeContext } from "../http/test-requests";
import { createTestProject } from "../projects/test-projects";

type User = { id: string; sessionVersion: number };
const image = async (user: User, projectId: string, index: string, headers: Record<string, string> = {}) =>
  imageRoute.GET(await requestAs(user, `/api/projects/${projectId}/items/${index}/image`, { headers }), routeContext({ projectId, index }));
const page = async (user: User, projectId: string, query: string) =>
  itemsRoute.GET(await requestAs(user, `/api/projects/${projectId}/items?${query}`), routeContext({ projectId }));

describe("item images", () => {
  it("streams an item's image to members with private caching and an ETag; 304 on a match", async () => {
    const { projectId, owner, annotator, outsider } = await createTestProject({ n: 5, items: "image" });
    const r = await image(annotator, projectId, "3");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/png");
    expect(r.headers.get("cache-control")).toBe("private, max-age=86400");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await r.arrayBuffer())).toEqual(TINY_PNG);
    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const cached = await image(owner, projectId, "3", { "if-none-match": etag });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe("");
    expect((await image(outsider, projectId, "3")).status).toBe(403);
    const missing = await image(owner, projectId, "5");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.message).toBe("This project has no item 5.");
    expect((await image(owner, projectId, "-1")).status).toBe(400);
  });

  it("answers 404 for an item without an image (text items)", async () => {
    const { projectId, owner } = await createTestProject({ n: 3, items: "text" });
    const r = await image(owner, projectId, "0");
    expect(r.status).toBe(404);
    expect((await r.json()).error.message).toBe("Item 0 has no image.");
  });
});

describe("item list", () => {
  it("pages through every item by index cursor, owners only", async () => {
    const { projectId, owner, annotator, outsider } = await createTestProject({ n: 25, items: "text" });
    const seen: number[] = [];
    let after = -1;
    for (;;) {
      const r = await page(owner, projectId, `after=${after}&limit=10`);
      expect(r.status).toBe(200);
      const body = await r.json();
      seen.push(...body.items.map((i: { index: number }) => i.index));
      if (body.next === null) break;
      after = body.next;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i));
    const first = await (await page(owner, projectId, "limit=1")).json();
    expect(first).toEqual({ items: [{ index: 0, externalId: "item-0", imageUrl: null, text: "text of item 0" }], next: 0 });
    expect((await page(owner, projectId, "limit=501")).status).toBe(400);
    expect((await page(annotator, projectId, "")).status).toBe(403);
    expect((await page(outsider, projectId, "")).status).toBe(403);
  });
});
