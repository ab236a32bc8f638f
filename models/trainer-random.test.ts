import { describe, expect, it } from "vitest";
import { Rng } from "./trainer-random";

describe("Rng (mulberry32)", () => {
  it("stays the stream the trainers' recorded fits were made with", () => {
    // a 40-wide dropout mask takes 20 words, then the stream goes on
    const r = new Rng(0);
    r.dropout(new Float32Array(40), 0.3, 2);
    expect([r.next(), r.next(), r.next()]).toEqual([0.13245022087357938, 0.8633731654845178, 0.44988243957050145]);
    const s = new Rng(1);
    s.dropout(new Float32Array(40), 0.3, 2);
    s.next();
    s.next();
    s.next();
    expect(s.int(1000)).toBe(760);
    expect(s.normal()).toBe(3.272528112133805);
  });

  it("fills a dropout mask from the same stream: about the rate zeroed, the rest scaled, reproducible", () => {
    const a = new Rng(9).dropout(new Float32Array(20_000).fill(1), 0.25, 2);
    const b = new Rng(9).dropout(new Float32Array(20_000).fill(1), 0.25, 2);
    expect(Array.from(a)).toEqual(Array.from(b));
    const zeros = a.filter((v) => v === 0).length;
    expect(zeros / a.length).toBeGreaterThan(0.23);
    expect(zeros / a.length).toBeLessThan(0.27);
    expect(a.every((v) => v === 0 || v === 2)).toBe(true);
  });
});
