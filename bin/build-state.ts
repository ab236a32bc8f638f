import fs from "node:fs";
import path from "node:path";

/** A production build is needed when there is none, or a source file changed after it. */
export function buildIsStale(root = process.cwd()): boolean {
  const stamp = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(stamp)) return true;
  const built = fs.statSync(stamp).mtimeMs;
  const changed = (p: string): boolean => {
    if (!fs.existsSync(p)) return false;
    const stat = fs.statSync(p);
    if (!stat.isDirectory()) return stat.mtimeMs > built;
    return fs
      .readdirSync(p, { withFileTypes: true })
      .some((e) => !["node_modules", ".next", "generated"].includes(e.name) && changed(path.join(p, e.name)));
  };
  return ["app", "lib", "models", "next.config.mjs", "package.json", "proxy.ts", "postcss.config.mjs"].some((p) => changed(path.join(root, p)));
}

export const NEXT_BIN = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
