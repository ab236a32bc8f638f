import { db } from "../db";
import { logger } from "./logger";

/** The worker refreshes its row this often; /api/ready wants a refresh within WORKER_STALE_MS. */
export const WORKER_HEARTBEAT_MS = 15_000;
export const WORKER_STALE_MS = 60_000;

export interface WorkerHeartbeat {
  stop(): Promise<void>;
}

/** Records a worker start and keeps its row fresh until stop() marks it stopped. */
export async function startWorkerHeartbeat(workerId: string): Promise<WorkerHeartbeat> {
  await db().workerHeartbeat.create({ data: { id: workerId, pid: process.pid } });
  const timer = setInterval(() => {
    // a busy database delays one beat; the next one is 15 s later, well inside the minute
    db()
      .workerHeartbeat.update({ where: { id: workerId }, data: { seenAt: new Date() } })
      .catch((error: Error) => logger().warn({ workerId, err: error.message }, "worker heartbeat not recorded"));
  }, WORKER_HEARTBEAT_MS);
  return {
    async stop() {
      clearInterval(timer);
      await db().workerHeartbeat.update({ where: { id: workerId }, data: { stoppedAt: new Date() } });
    },
  };
}

/** Is a worker running: one not stopped whose heartbeat is fresh. */
export async function workerAlive(now = new Date()): Promise<boolean> {
  const live = await db().workerHeartbeat.count({ where: { stoppedAt: null, seenAt: { gte: new Date(now.getTime() - WORKER_STALE_MS) } } });
  return live > 0;
}
