/**
 * One `cereal simulate` child process whose result lands at FILE atomically (written to FILE.tmp,
 * renamed when the child succeeds), so a resumable bench skips the files that exist and a killed
 * run leaves no half-written result. Used by the benches that run grids of simulations.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Runs `cereal simulate ARGS --out FILE` unless FILE exists; logs the file's name and the seconds it took to stderr. With
 * `--save-inputs` among ARGS the rounds' inputs land in FILE.inputs/, moved there with the result.
 */
export function simulateOnce(file: string, args: readonly string[]): void {
  if (fs.existsSync(file)) return;
  const argv = ["--import", "tsx", "bin/cereal.ts", "simulate", ...args, "--out", `${file}.tmp`];
  const started = performance.now();
  const child = spawnSync(process.execPath, argv, { stdio: ["ignore", "ignore", "inherit"] });
  if (child.status !== 0) throw new Error(`simulate ${argv.join(" ")} exited with ${child.status}`);
  if (fs.existsSync(`${file}.tmp.inputs`)) {
    fs.rmSync(`${file}.inputs`, { recursive: true, force: true });
    fs.renameSync(`${file}.tmp.inputs`, `${file}.inputs`);
  }
  fs.renameSync(`${file}.tmp`, file);
  console.error(`${path.basename(file)}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
