import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorResponse, jsonResponse } from "./route";
import { conflict } from "../errors";

/**
 * API answers are never cached, and a small one says `no-transform` (issue #18): Next drops a
 * route's Content-Length and streams the body, so its compression middleware, which cannot see the
 * size, would gzip every 20-byte answer; it honours no-transform. Larger bodies are still compressed.
 */
describe("JSON responses", () => {
  it("a small body: no-store, no-transform, with its JSON intact (non-ASCII text included)", async () => {
    const response = jsonResponse({ name: "Ælfgifu — ünïcødé", n: 3 }, 201);
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(await response.json()).toEqual({ name: "Ælfgifu — ünïcødé", n: 3 });
  });

  it("a body of 1 kB or more (counted in bytes) may be compressed, and is still never stored", () => {
    // 520 characters of two bytes each: under 1,024 characters, over 1,024 bytes
    expect(jsonResponse({ text: "é".repeat(520) }).headers.get("cache-control")).toBe("no-store");
    expect(jsonResponse({ text: "e".repeat(520) }).headers.get("cache-control")).toBe("no-store, no-transform");
  });

  it("errors too: the status, the code and the message", async () => {
    const refused = errorResponse(conflict("Dé jà vu: this key was used."));
    expect(refused.status).toBe(409);
    expect(refused.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(await refused.json()).toEqual({ error: { code: "conflict", message: "Dé jà vu: this key was used." } });

    const invalid = errorResponse(z.object({ count: z.number() }).safeParse({ count: "x" }).error);
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error.message).toMatch(/^count: /);
  });
});
