import { Writable } from "node:stream";
import type { Logger } from "pino";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as labelsRoute from "@/app/api/projects/[projectId]/labels/route";
import * as me from "@/app/api/me/route";
import { db } from "../db";
import { runOneJob } from "../jobs/worker-loop";
import { digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { nextTasks } from "../labeling/tasks";
import { requestAs, routeContext, sessionCookie } from "../http/test-requests";
import { createLogger } from "./logger";
import { routePattern } from "./request-log";

/** Every line the process logger writes while these tests run. */
const lines: string[] = [];
const capture = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});
const holder = globalThis as unknown as { cerealLogger?: Logger };
holder.cerealLogger = createLogger(capture, { CEREAL_LOG_LEVEL: "info" });
afterAll(() => void delete holder.cerealLogger);

const logged = (msg: string) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === msg);

beforeEach(async () => {
  lines.length = 0;
  await db().job.deleteMany({});
});

describe("structured logs", () => {
  it("writes one JSON line per request: method, route pattern, status, ms, user and project; no body, no cookie", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 3 });
    const user = await db().user.findUniqueOrThrow({ where: { id: annotators[0].id } });
    const [task] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    const body = { taskId: task.id, kind: "label", classIndex: 2, idempotencyKey: "secret-looking-key-77" };
    await labelsRoute.POST(await requestAs(user, `/api/projects/${projectId}/labels?x=1`, { method: "POST", json: body }), routeContext({ projectId }));
    await me.GET(await requestAs(null, "/api/me"), routeContext());

    const [labelLine, anonymous] = logged("request");
    expect(labelLine).toMatchObject({ level: 30, method: "POST", route: "/api/projects/[projectId]/labels", status: 200, userId: user.id, projectId });
    expect(labelLine.ms).toEqual(expect.any(Number));
    expect(anonymous).toMatchObject({ method: "GET", route: "/api/me", status: 401 });
    expect(anonymous).not.toHaveProperty("userId");
    const token = (await sessionCookie(user)).split("=")[1];
    expect(lines.join("\n")).not.toMatch(new RegExp(`secret-looking-key-77|x=1|${token.slice(0, 40)}`));
  });

  it("writes one JSON line per job attempt: kind, project, round, attempt, seconds, outcome", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    const failing = { ...fastWorkerDeps, createSurrogate: async () => Promise.reject(new Error("surrogate exploded")) };
    await runOneJob("log-worker", { deps: failing });
    await db().job.updateMany({ where: { projectId }, data: { runAfter: new Date(0) } });
    await runOneJob("log-worker", { deps: fastWorkerDeps });

    const [first, second] = logged("job");
    expect(first).toMatchObject({ level: 40, kind: "round", projectId, round: 0, attempt: 1, outcome: "retrying", error: "surrogate exploded" });
    expect(second).toMatchObject({ level: 30, kind: "round", projectId, round: 0, attempt: 2, outcome: "done" });
    expect(second.seconds).toEqual(expect.any(Number));
  });

  it("writes readable lines instead of JSON when CEREAL_LOG_FORMAT=pretty (npm run dev)", () => {
    const out: string[] = [];
    const sink = new Writable({ write: (chunk, _e, done) => (out.push(String(chunk)), done()) });
    createLogger(sink, { CEREAL_LOG_FORMAT: "pretty" }).info({ route: "/api/health", status: 200 }, "request");
    const text = out.join("").replace(/\x1b\[[0-9;]*m/g, "");
    expect(text).toMatch(/INFO.*request/);
    expect(text).toMatch(/route: "\/api\/health"/);
    expect(() => JSON.parse(text)).toThrow();
  });

  it("names a route by its pattern, catch-all parameters included", () => {
    expect(routePattern("/api/projects/p1/items/17/image", { projectId: "p1", index: "17" })).toBe("/api/projects/[projectId]/items/[index]/image");
    expect(routePattern("/api/auth/callback/credentials", { nextauth: ["callback", "credentials"] })).toBe("/api/auth/[...nextauth]");
    expect(routePattern("/api/projects/p1/rounds/p1", { projectId: "p1" })).toBe("/api/projects/[projectId]/rounds/p1");
  });
});
