import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { db } from "../db";
import { jobResult } from "../jobs/queue";
import { roundJob } from "../rounds/round-job";
import { queueByLane, type LaneQueue } from "./queue-depth";

/**
 * The Prometheus registry of the web process (`GET /api/metrics`). Request latency is observed
 * in this process as requests pass route(); everything the worker does (rounds, queue, restarts)
 * is read from the database at scrape time, so the numbers survive either process restarting.
 * Kept on globalThis so Next's route bundles share one registry.
 */
export interface CerealMetrics {
  readonly registry: Registry;
  readonly requestSeconds: Histogram<"method" | "route" | "status">;
}

const holder = globalThis as unknown as { cerealMetrics?: CerealMetrics };

export function metrics(): CerealMetrics {
  holder.cerealMetrics ??= createMetrics();
  return holder.cerealMetrics;
}

export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}

function createMetrics(): CerealMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: "cereal_process_" });

  const requestSeconds = new Histogram({
    name: "cereal_http_request_duration_seconds",
    help: "Time to the response's headers, per route pattern, method and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });

  new Gauge({
    name: "cereal_labels_per_minute",
    help: "Labels answered in the last 60 seconds, per project (skips and unsure excluded)",
    labelNames: ["project"] as const,
    registers,
    async collect() {
      const rows = await db().label.groupBy({ by: ["projectId"], where: { kind: "label", createdAt: { gte: new Date(Date.now() - 60_000) } }, _count: { _all: true } });
      this.reset();
      for (const row of rows) this.set({ project: row.projectId }, row._count._all);
    },
  });

  new Gauge({
    name: "cereal_open_tasks",
    help: "Drawn tasks not yet answered in every slot, per project",
    labelNames: ["project"] as const,
    registers,
    async collect() {
      const rows = await db().task.groupBy({ by: ["projectId"], where: { done: false }, _count: { _all: true } });
      this.reset();
      for (const row of rows) this.set({ project: row.projectId }, row._count._all);
    },
  });

  for (const [name, help, value] of [
    ["cereal_queue_depth", "Jobs waiting to be claimed, per lane", (q: LaneQueue) => q.depth],
    ["cereal_queue_oldest_age_seconds", "Seconds the oldest waiting job has waited, per lane (0 when none waits)", (q: LaneQueue) => q.oldestAgeSeconds],
  ] as const) {
    new Gauge({
      name,
      help,
      labelNames: ["lane"] as const,
      registers,
      async collect() {
        const lanes = await queueByLane();
        this.reset();
        for (const [lane, queue] of Object.entries(lanes)) this.set({ lane }, value(queue));
      },
    });
  }

  new Histogram({
    name: "cereal_round_step_seconds",
    help: "Seconds each step of a finished round took (freeze, load, interim, fit, estimate, acquire, store)",
    labelNames: ["step"] as const,
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
    registers,
    async collect() {
      const jobs = await db().job.findMany({ where: { kind: roundJob.kind, status: "done" }, select: { result: true } });
      this.reset();
      for (const job of jobs) for (const [step, seconds] of Object.entries(jobResult(roundJob, job)?.steps ?? {})) this.observe({ step }, seconds);
    },
  });

  new Counter({
    name: "cereal_worker_restarts_total",
    help: "Worker process starts after the first one",
    registers,
    async collect() {
      const starts = await db().workerHeartbeat.count();
      this.reset();
      this.inc(Math.max(0, starts - 1));
    },
  });

  return { registry, requestSeconds };
}
