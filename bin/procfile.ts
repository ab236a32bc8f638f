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

/** SIGTERM to the entry's process group (the drain), SIGKILL after forceMs; resolves once its shell exited. */
export async function stopProcess(child: ChildProcess, forceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is gone
    }
  };
  signal("SIGTERM");
  const force = setTimeout(() => signal("SIGKILL"), forceMs);
  await exited;
  clearTimeout(force);
}
