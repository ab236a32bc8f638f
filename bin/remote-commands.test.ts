import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readNpy } from "@/lib/data/npy";
import { db } from "@/lib/server/db";
import { runOneJob } from "@/lib/server/jobs/worker-loop";
import { DIGITS, fastWorkerDeps } from "@/lib/server/labeling/labeling-test-fixture";
import { createTestUser, sessionCookie } from "@/lib/server/http/test-requests";
import { startTestServer } from "@/lib/server/http/test-server";
import { CommandError } from "./project-commands";
import { runRemote } from "./remote-commands";
import { RemoteError } from "./remote-client";

/**
 * Scripting it, end to end against a server: a token made through the API imports a bundle with
 * the remote command line, a label-scoped token answers the seed batch, the worker runs the first
 * round, the remote command line exports, and the Python example (standard library only) reads
 * the estimates; a read token gets 403 on a POST, a revoked token 401.
 */
const run = promisify(execFile);
let server: Awaited<ReturnType<typeof startTestServer>>;
let session: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-remote-"));

beforeAll(async () => {
  server = await startTestServer();
  const user = await createTestUser("RESEARCHER");
  session = await sessionCookie(user);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The browser's side: a same-origin request with the session cookie. */
async function withSession(method: string, pathname: string, body?: unknown) {
  const response = await fetch(server.url + pathname, {
    method,
    headers: { cookie: session, origin: server.url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function withToken(token: string, method: string, pathname: string, body?: unknown) {
  const response = await fetch(server.url + pathname, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function makeToken(scope: "read" | "label" | "write") {
  const { status, json } = await withSession("POST", "/api/tokens", { name: `${scope} for the script`, scope });
  expect(status).toBe(200);
  return json as { id: string; token: string };
}

function remote(token: string, ...args: string[]) {
  const printed: string[] = [];
  const progress: string[] = [];
  const stream = { write: (s: string) => progress.push(s), isTTY: false } as unknown as NodeJS.WritableStream;
  return runRemote(args, (line) => printed.push(line), { CEREAL_SERVER: server.url, CEREAL_TOKEN: token }, stream).then((result) => ({ result, printed, progress }));
}

describe("cereal remote and the Python example against a server", () => {
  it("import -> label -> export -> Python, with each token's scope held", async () => {
    const write = await makeToken("write");
    const label = await makeToken("label");
    const read = await makeToken("read");

    // import the digits bundle folder, streamed, with the write token
    const imported = await remote(write.token, "import", DIGITS, "--name", "Digits by token");
    const projectId = (imported.result as { projectId: string }).projectId;
    expect(imported.printed).toEqual([`imported Digits by token as ${projectId}: 1797 items, 64 dimensions, 6 clusterings`]);
    expect(imported.progress.at(-1)).toMatch(/^upload done: 0\.\d MB\n$/);
    expect(imported.progress.filter((l) => / \d+% of /.test(l)).map((l) => l.split(" ")[1])).toEqual(["0%", "25%", "50%", "75%", "100%"]);
    expect((await remote(write.token, "projects")).printed).toEqual([expect.stringMatching(new RegExp(`^${projectId}  Digits by token  \\(owner, clusterwise, 1797 items, 0/\\d+ labels\\)$`))]);

    // a read token may not lease tasks; the label token answers the whole seed batch with the truth
    expect((await withToken(read.token, "POST", `/api/projects/${projectId}/tasks/next?count=1`)).status).toBe(403);
    const truth = (await readNpy(path.join(DIGITS, "labels.npy"))).data as Int32Array;
    const { seedSize } = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    let answered = 0;
    while (answered < seedSize) {
      const next = await withToken(label.token, "POST", `/api/projects/${projectId}/tasks/next?count=1`);
      expect(next.status).toBe(200);
      const [task] = next.json.tasks as { id: string; item: { index: number } }[];
      const answer = await withToken(label.token, "POST", `/api/projects/${projectId}/labels`, { taskId: task.id, kind: "label", classIndex: truth[task.item.index], idempotencyKey: `script-${task.id}` });
      expect(answer.status).toBe(200);
      answered++;
    }
    // but a label token changes nothing else
    expect((await withToken(label.token, "PATCH", `/api/projects/${projectId}/settings`, { guidelines: "x" })).status).toBe(403);

    // the worker runs round 0
    await db().job.updateMany({ where: { projectId, kind: { not: "round" } }, data: { status: "cancelled" } });
    expect(await runOneJob("remote-test", { deps: fastWorkerDeps })).toBe(true);
    expect(await db().round.findFirstOrThrow({ where: { projectId, index: 0 } })).toMatchObject({ status: "done" });

    // status and exports through the remote command line
    const status = await remote(read.token, "status", "Digits by token");
    expect(status.printed[0]).toBe(`Digits by token (${projectId}): ${seedSize}/${(status.result as { budget: number }).budget} labels`);
    expect(status.printed.filter((l) => /^ {2}\S+: NMI \d\.\d{3} \[-?\d\.\d{3}, \d\.\d{3}\]$/.test(l))).toHaveLength(6);
    const labelsCsv = path.join(dir, "labels.csv");
    const exported = await remote(read.token, "export", projectId, "--kind", "labels", "--format", "csv", "--out", labelsCsv);
    expect(exported.printed[0]).toMatch(/^wrote labels \(csv\) of Digits by token to .*labels\.csv: \d+ bytes$/);
    const rows = parse(fs.readFileSync(labelsCsv), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(seedSize);
    expect(rows.every((r) => Number(r.class_index) === truth[Number(r.item_index)])).toBe(true);
    for (const kind of ["estimates", "config", "bundle"]) {
      const out = path.join(dir, `${kind}.out`);
      const { result } = await remote(read.token, "export", projectId, "--kind", kind, "--out", out);
      expect(fs.statSync(out).size).toBe((result as { bytes: number }).bytes);
      expect(fs.statSync(out).size).toBeGreaterThan(100);
    }
    expect(fs.readFileSync(path.join(dir, "bundle.out")).subarray(0, 2).toString()).toBe("PK");
    await expect(remote(read.token, "export", projectId, "--kind", "labels", "--format", "xlsx", "--out", labelsCsv)).rejects.toThrow(CommandError);

    // the Python example with the read token
    const python = await run("python3", [path.join(process.cwd(), "examples/python/cereal_example.py"), "--out", path.join(dir, "py"), "--project", projectId], {
      env: { ...process.env, CEREAL_SERVER: server.url, CEREAL_TOKEN: read.token },
    });
    const lines = python.stdout.trim().split("\n");
    expect(lines[0]).toBe(`Digits by token (${projectId}): ${seedSize}/${(status.result as { budget: number }).budget} labels, role owner`);
    expect(lines.filter((l) => /^ {2}\S+: NMI \d\.\d{3} \[-?\d\.\d{3}, \d\.\d{3}\]$/.test(l))).toHaveLength(6);
    // the same NMI lines as the remote status, and the same estimate history as the remote export
    expect(lines.filter((l) => l.includes(": NMI "))).toEqual(status.printed.filter((l) => l.includes(": NMI ")));
    expect(fs.readFileSync(path.join(dir, "py", `${projectId}-estimates.csv`))).toEqual(fs.readFileSync(path.join(dir, "estimates.out")));
    expect(parse(fs.readFileSync(path.join(dir, "py", `${projectId}-labels.csv`)), { columns: true })).toHaveLength(seedSize);

    // a read token's POST is 403; a revoked token is 401, for the command line and for Python
    const post = await withToken(read.token, "POST", `/api/projects/${projectId}/label-free`);
    expect(post.status).toBe(403);
    expect((await withSession("DELETE", `/api/tokens/${read.id}`)).status).toBe(200);
    expect((await withToken(read.token, "GET", "/api/projects")).status).toBe(401);
    await expect(remote(read.token, "projects")).rejects.toThrow(RemoteError);
    await expect(remote(read.token, "projects")).rejects.toThrow(/\/api\/projects: 401 This access token was revoked/);
    const refused = await run("python3", [path.join(process.cwd(), "examples/python/cereal_example.py")], { env: { ...process.env, CEREAL_SERVER: server.url, CEREAL_TOKEN: read.token } }).catch((e: { stderr: string; code: number }) => e);
    expect((refused as { code: number }).code).toBe(1);
    expect((refused as { stderr: string }).stderr).toMatch(/\/api\/projects: 401 This access token was revoked/);
  }, 120_000);

  it("says what is missing", async () => {
    await expect(runRemote(["projects"], () => {}, {}, null)).rejects.toThrow(/--server URL \(or CEREAL_SERVER\)/);
    await expect(runRemote(["projects"], () => {}, { CEREAL_SERVER: server.url }, null)).rejects.toThrow(/--token TOKEN \(or CEREAL_TOKEN\)/);
    await expect(runRemote(["import", DIGITS], () => {}, { CEREAL_SERVER: server.url, CEREAL_TOKEN: "x" }, null)).rejects.toThrow(/--name NAME/);
    await expect(runRemote(["frobnicate"], () => {}, { CEREAL_SERVER: server.url, CEREAL_TOKEN: "x" }, null)).rejects.toThrow(/projects, import, status and export, not 'frobnicate'/);
    await expect(runRemote(["projects"], () => {}, { CEREAL_SERVER: server.url, CEREAL_TOKEN: "not-a-token" }, null)).rejects.toThrow(/401 This is not a Cereal Studio access token/);
  });
});
