import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorResponse, jsonResponse } from "./route";
import { conflict } from "../errors";

/**
 * API answers carry their Content-Length, so Next's compression (which compresses a body of unknown
 * length whatever its size) leaves the small ones alone (issue #18); the length must be the body's
 * size in bytes, not in characters.
 */
describe("JSON responses", () => {
  it("carry the body's length in bytes, non-ASCII text included", async () => {
    const response = jsonResponse({ name: "Ælfgifu — ünïcødé", n: 3 }, 201);
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
    expect(bytes.length).toBeGreaterThan(JSON.stringify({ name: "Ælfgifu — ünïcødé", n: 3 }).length);
    expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual({ name: "Ælfgifu — ünïcødé", n: 3 });
  });

  it("errors too: the status, the code and the message with their length", async () => {
    const refused = errorResponse(conflict("Dé jà vu: this key was used."));
    expect(refused.status).toBe(409);
    const text = await refused.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "conflict", message: "Dé jà vu: this key was used." } });
    expect(Number(refused.headers.get("content-length"))).toBe(Buffer.byteLength(text));

    const invalid = errorResponse(z.object({ count: z.number() }).safeParse({ count: "x" }).error);
    expect(invalid.status).toBe(400);
    expect(Number(invalid.headers.get("content-length"))).toBe(Buffer.byteLength(await invalid.text()));
  });
});
