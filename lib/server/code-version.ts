import fs from "node:fs";
import path from "node:path";

/**
 * The code a round ran with, stored on the round so a run can be reproduced: the package
 * version and, in a git checkout, the commit (CEREAL_CODE_VERSION overrides both).
 */
let cached: string | null = null;

export function codeVersion(root = process.cwd()): string {
  if (cached) return cached;
  const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  cached = process.env.CEREAL_CODE_VERSION ?? `${version}${gitCommit(root) ? `+${gitCommit(root)!.slice(0, 12)}` : ""}`;
  return cached;
}

function gitCommit(root: string): string | null {
  try {
    const head = fs.readFileSync(path.join(root, ".git", "HEAD"), "utf8").trim();
    if (!head.startsWith("ref: ")) return head;
    const ref = head.slice(5);
    const loose = path.join(root, ".git", ref);
    if (fs.existsSync(loose)) return fs.readFileSync(loose, "utf8").trim();
    const packed = fs.readFileSync(path.join(root, ".git", "packed-refs"), "utf8");
    return packed.split("\n").find((line) => line.endsWith(` ${ref}`))?.split(" ")[0] ?? null;
  } catch {
    return null;
  }
}
