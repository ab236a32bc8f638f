import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";

/**
 * The Procfile (top level): `name: command` lines, `#` comments. `release` runs once before the
 * others (migrations); every other entry is a long-running process. bin/e2e.ts --postgresql runs
 * the team deployment from it.
 */
export interface ProcfileEntry {
  readonly name: string;
  readonly command: string;
}

export function readProcfile(file = "Procfile"): ProcfileEntry[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^([A-Za-z0-9_-]+):\s*(.+)$/.exec(line);
      if (!match) throw new Error(`${file}: not a "name: command" line: ${line}`);
      return { name: match[1], command: match[2] };
    });
}

/** Starts one entry through the shell, in a process group of its own (stopProcess signals the whole group: npm, its shell, node). */
export function startProcess(entry: ProcfileEntry, env: NodeJS.ProcessEnv, onOutput: (line: string) => void): ChildProcess {
  const child = spawn("/bin/sh", ["-c", entry.command], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  for (const stream of [child.stdout!, child.stderr!]) stream.on("data", (chunk: Buffer) => onOutput(`${entry.name}| ${chunk.toString().trimEnd()}`));
  return child;
}

/** true while any process of the group `pgid` is alive (signal 0 delivers nothing, it only checks) */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to the entry's process group (the drain), SIGKILL after forceMs; resolves once no process of the
 * group is left, not when its shell exits: the shell dies of the SIGTERM at once while the app it started may
 * still be draining, and a caller that then removes the app's data folder (bin/e2e.ts) would pull it from under
 * a live process (which then spun on the missing database, orphaned, after the e2e run ended).
 */
export async function stopProcess(child: ChildProcess, forceMs = 30_000, pollMs = 100): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined || !groupAlive(pgid)) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pgid, name);
    } catch {
      // the group is gone
    }
  };
  signal("SIGTERM");
  const forceAt = Date.now() + forceMs;
  let killed = false;
  // after SIGKILL, a bounded wait: a process that died but was not yet reaped still answers signal 0
  while (groupAlive(pgid) && !(killed && Date.now() > forceAt + 5_000)) {
    if (!killed && Date.now() >= forceAt) {
      signal("SIGKILL");
      killed = true;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
