import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { serverConfig } from "../config";
import { PROJECT_CHANNEL } from "../db";
import { digitsProject, labelAll } from "../labeling/labeling-test-fixture";
import { postgresTarget } from "../postgres-url";
import { notifiedProjectFeeds } from "./events";
import type { ProjectListener } from "./project-listener";

// Live events on PostgreSQL (npm run test:pg only: *.postgresql.test.ts). Every feed here polls
// every 10 minutes, longer than a test may run (60 s): a snapshot that arrives after the first
// came from a notification.
const NO_POLL = { pollMs: 600_000, minGapMs: 0 };
const pool = () => postgresTarget(serverConfig().postgresUrl!).pool;

const until = async (what: string, check: () => boolean) => {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

/** Feeds on a listener, and what the project's owner is shown through them. */
async function watched() {
  const { projectId, owner, annotators, truth } = await digitsProject();
  const { feeds, listener } = notifiedProjectFeeds(serverConfig().postgresUrl!, NO_POLL);
  cleanup.push(() => listener.close());
  await until("the listener to connect", () => listener.backendPid() !== null);
  const shown: { labels: number; budget: number }[] = [];
  cleanup.push(feeds.watch(projectId, owner.id, (event) => "snapshot" in event && shown.push(JSON.parse(event.snapshot))));
  await until("the first snapshot", () => shown.length === 1);
  return { projectId, annotators, truth, listener, shown };
}

/** Another process changes the project's budget behind the app's back and says so on the channel. */
function budgetFromAnotherProcess(projectId: string, budget: number) {
  const script = `
    const pg = require("pg");
    const client = new pg.Client(JSON.parse(process.env.POOL));
    (async () => {
      await client.connect();
      await client.query('UPDATE "Project" SET budget = $1 WHERE id = $2', [${budget}, process.env.PROJECT]);
      await client.query("SELECT pg_notify($1, $2)", [process.env.CHANNEL, process.env.PROJECT]);
      await client.end();
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const run = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, POOL: JSON.stringify(pool()), PROJECT: projectId, CHANNEL: PROJECT_CHANNEL }, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
}

async function terminate(listener: ProjectListener) {
  const admin = new pg.Client(pool());
  await admin.connect();
  try {
    await admin.query("SELECT pg_terminate_backend($1)", [listener.backendPid()]);
  } finally {
    await admin.end();
  }
}

describe("live events on PostgreSQL (LISTEN/NOTIFY)", () => {
  it("a stored label reaches the feed through its notification, long before the poll", async () => {
    const { annotators, truth, projectId, shown } = await watched();
    expect(shown[0].labels).toBe(0);
    await labelAll(annotators[0], projectId, truth, 1);
    await until("the label in the snapshot", () => shown.at(-1)?.labels === 1);
  });

  it("a notification from another process wakes the feed", async () => {
    const { projectId, shown } = await watched();
    budgetFromAnotherProcess(projectId, 77);
    await until("the new budget in the snapshot", () => shown.at(-1)?.budget === 77);
  });

  it("opens its connection again when it is lost, and catches up on what changed meanwhile", async () => {
    const { projectId, listener, shown } = await watched();
    const first = listener.backendPid();
    await terminate(listener);
    // changed while the listener is down (it waits 250 ms before opening again): its notification is lost
    budgetFromAnotherProcess(projectId, 88);
    await until("a new listening connection", () => listener.backendPid() !== null && listener.backendPid() !== first);
    await until("the change made while it was down", () => shown.at(-1)?.budget === 88);
    budgetFromAnotherProcess(projectId, 99);
    await until("a change after the reconnection", () => shown.at(-1)?.budget === 99);
  });
});
