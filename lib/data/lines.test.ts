import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readLines } from "./lines";

const dir = await mkdtemp(path.join(os.tmpdir(), "cereal-lines-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function linesOf(text: string | Buffer) {
  const file = path.join(dir, `f-${Math.random()}`);
  await writeFile(file, text);
  const out: string[] = [];
  for await (const line of readLines(file)) out.push(line);
  return out;
}

describe("readLines", () => {
  it("splits on \\n and \\r\\n, with or without a final newline", async () => {
    expect(await linesOf("a\nb\r\nc\n")).toEqual(["a", "b", "c"]);
    expect(await linesOf("a\nb")).toEqual(["a", "b"]);
    expect(await linesOf("")).toEqual([]);
    expect(await linesOf("a\n\nb\n")).toEqual(["a", "", "b"]);
  });

  it("keeps multi-byte characters and long lines whole across 1 MiB chunks", async () => {
    const long = "é".repeat(700_000) + "漢";
    expect(await linesOf(`${long}\nnext\n`)).toEqual([long, "next"]);
  });
});
