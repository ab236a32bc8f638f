import { db } from "../db";
import type { Lane } from "../jobs/definition";
import { JOBS } from "../jobs/registry";

export interface LaneQueue {
  /** jobs waiting to be claimed */
  depth: number;
  /** seconds the oldest waiting job has waited; 0 when none waits */
  oldestAgeSeconds: number;
}

/** Waiting jobs per lane, every lane of the registry listed (an idle lane shows 0). */
export async function queueByLane(now = new Date()): Promise<Record<Lane, LaneQueue>> {
  const laneOf = new Map(JOBS.map((d) => [d.kind, d.lane]));
  const lanes = {} as Record<Lane, LaneQueue>;
  for (const lane of new Set(laneOf.values())) lanes[lane] = { depth: 0, oldestAgeSeconds: 0 };
  const waiting = await db().job.groupBy({ by: ["kind"], where: { status: "queued" }, _count: { _all: true }, _min: { createdAt: true } });
  for (const row of waiting) {
    const lane = laneOf.get(row.kind);
    if (!lane) continue;
    const age = row._min.createdAt ? Math.max(0, (now.getTime() - row._min.createdAt.getTime()) / 1000) : 0;
    lanes[lane].depth += row._count._all;
    lanes[lane].oldestAgeSeconds = Math.max(lanes[lane].oldestAgeSeconds, age);
  }
  return lanes;
}
