import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { groupAlive as alive, startProcess, stopProcess } from "./procfile";

const started: number[] = [];
afterEach(() => {
  for (const pgid of started.splice(0))
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // gone
    }
});

/** a shell that runs node in the background-free way a Procfile entry does: node is the shell's child, in its group */
function startNode(script: string) {
  const lines: string[] = [];
  const child = startProcess({ name: "app", command: `"${process.execPath}" -e "${script}"; true` }, process.env, (line) => lines.push(line));
  started.push(child.pid!);
  return { child, lines };
}

/** polls `done` every 25 ms, at most 5 s */
async function until(done: () => boolean) {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
}

async function untilLine(lines: string[], text: string) {
  await until(() => lines.some((l) => l.includes(text)));
  expect(lines.some((l) => l.includes(text))).toBe(true);
}

describe("stopProcess", () => {
  it("waits for the app the shell started, not only the shell, while it drains after SIGTERM", async () => {
    // the app writes a file once it has drained, 600 ms after the SIGTERM; the shell dies of the SIGTERM at once
    const drained = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "procfile-")), "drained");
    const { child, lines } = startNode(`process.on('SIGTERM', () => setTimeout(() => { require('fs').writeFileSync('${drained}', 'x'); process.exit(0); }, 600)); console.log('ready'); setInterval(() => {}, 1000)`);
    await untilLine(lines, "ready");
    await stopProcess(child, 10_000, 20);
    expect(fs.existsSync(drained)).toBe(true);
    expect(alive(child.pid!)).toBe(false);
  });

  it("kills the group after forceMs when the app ignores SIGTERM", async () => {
    const { child, lines } = startNode("process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)");
    await untilLine(lines, "ready");
    await stopProcess(child, 300, 20);
    expect(alive(child.pid!)).toBe(false);
  });

  it("resolves for a group that already exited", async () => {
    const { child, lines } = startNode("console.log('done')");
    await untilLine(lines, "done");
    await until(() => !alive(child.pid!));
    await stopProcess(child, 10_000, 20);
    expect(alive(child.pid!)).toBe(false);
  });
});
