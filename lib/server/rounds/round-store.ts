import type { IntervalReport } from "@/lib/cereal/method/intervals";
import { METRIC_KEYS, type MetricValues } from "@/lib/metrics";
import type { Design } from "@/lib/cereal/method/designs";
import { pairKey } from "@/lib/cereal/pairwise/pair-designs";
import { createBatch, drawnKeys } from "../labeling/batches";
import { db, notifyProjectChanged, transaction, type Tx } from "../db";
import type { EstimatePoint } from "../project-data/estimate-history";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * What clusterwise and pairwise rounds store alike, in the database: each clustering's estimates
 * with interval and P(best), a pairwise round's stage, and the round marked done (its files are written
 * before, by project-data/round-files.ts); before the fit, a clusterwise round's interim estimates.
 */
function estimatePoints(estimate: Record<string, MetricValues>, intervals: IntervalReport | null): EstimatePoint[] {
  return Object.entries(estimate).flatMap(([clustering, values]) =>
    METRIC_KEYS.map((metric) => ({
      clustering,
      metric,
      value: values[metric],
      lo: intervals?.interval[clustering]?.[metric]?.[0] ?? null,
      hi: intervals?.interval[clustering]?.[metric]?.[1] ?? null,
      pBest: intervals?.pBest[metric]?.[clustering] ?? null,
    })),
  );
}

async function storeEstimates(
  tx: Tx,
  roundId: string,
  clusteringIds: ReadonlyMap<string, string>,
  estimate: Record<string, MetricValues>,
  intervals: IntervalReport | null,
) {
  await tx.estimate.deleteMany({ where: { roundId } });
  await tx.estimate.createMany({ data: estimatePoints(estimate, intervals).map(({ clustering, ...point }) => ({ roundId, clusteringId: clusteringIds.get(clustering)!, ...point })) });
}

/**
 * A running round's interim estimates (issue #24: from the previous round's model, before the fit),
 * on its Round row until completeRound replaces them with the final ones. A round already done
 * (a resumed job that raced past its end) is left as it was. Returns whether they were stored.
 */
export async function storeInterimEstimates(projectId: string, round: number, estimate: Record<string, MetricValues>, intervals: IntervalReport | null): Promise<boolean> {
  const stored = await db().round.updateMany({
    where: { projectId, index: round, status: "running" },
    data: { interimEstimates: estimatePoints(estimate, intervals) as unknown as Prisma.InputJsonValue },
  });
  if (stored.count) await notifyProjectChanged(db(), projectId);
  return stored.count > 0;
}

/** The project may have been deleted while the surrogate trained: never recreate its folder. */
export async function assertProjectExists(projectId: string) {
  if (!(await db().project.findUnique({ where: { id: projectId }, select: { id: true } }))) throw new Error("The project was deleted during the round.");
}

/** One draw of a stage a pairwise round draws: a pair (rowB), with how it was drawn. */
type NextDraw = { row: number; rowB: number | null; score: number | null; q: number; design: Design };

/**
 * Writes the stage a pairwise round drew, after every stage drawn meanwhile (labeling/stages.ts
 * draws uniform pair stages while rounds train). A pair handed out since the round started is
 * dropped: among n(n - 1)/2 pairs such a collision is rare, and each kept pair keeps its own q.
 */
async function writeRoundStage(tx: Tx, projectId: string, round: number, draws: readonly NextDraw[]) {
  const drawn = await drawnKeys(tx, projectId);
  const fresh = draws.filter((d) => (d.rowB === null ? !drawn.rows.has(d.row) : !drawn.pairs.has(pairKey(d.row, d.rowB))));
  if (!fresh.length) return;
  const last = await tx.batch.findFirst({ where: { projectId }, orderBy: { index: "desc" }, select: { index: true } });
  const designs = new Set(fresh.map((d) => d.design));
  await createBatch(tx, projectId, { index: (last?.index ?? -1) + 1, drawnByRoundIndex: round, design: designs.size === 1 ? fresh[0].design : "mixed", eps: 0, poolSize: null, evidence: null }, fresh);
}

/**
 * A round's end, in one transaction: each clustering's estimates, a pairwise round's stage,
 * and the round marked done with what it measured. A round already done (the job retried after
 * a crash past this point) is left as it was.
 */
export async function completeRound(
  project: { id: string; clusterings: readonly { name: string; id: string }[] },
  round: number,
  result: {
    nLabels: number;
    /** the surrogate's fit, null when none ran */
    fit: { backend: string; trainSeconds: number } | null;
    estimate: Record<string, MetricValues>;
    intervals: IntervalReport | null;
    /** the stage a pairwise round drew, in rank order (clusterwise rounds draw none: they rank) */
    next: readonly (Omit<NextDraw, "rowB"> & { rowB?: number | null })[];
  },
  outcome: {
    /** what else the round measured and wrote: surrogate accuracy, files */
    measured: Omit<Prisma.RoundUpdateInput, "status" | "finishedAt" | "error" | "roundSeconds" | "writeSeconds" | "nLabels" | "backend" | "trainSeconds">;
    /** performance.now() when the round started, and when it started writing */
    started: number;
    writeStarted: number;
  },
) {
  const byName = new Map(project.clusterings.map((c) => [c.name, c.id]));
  await transaction(async (tx) => {
    const row = await tx.round.findUniqueOrThrow({ where: { projectId_index: { projectId: project.id, index: round } } });
    if (row.status === "done") return;
    await storeEstimates(tx, row.id, byName, result.estimate, result.intervals);
    const draws = result.next.map((d) => ({ row: d.row, rowB: d.rowB ?? null, score: d.score, q: d.q, design: d.design }));
    if (draws.length) await writeRoundStage(tx, project.id, round, draws);
    const now = performance.now();
    await tx.round.update({
      where: { id: row.id },
      data: {
        ...outcome.measured,
        nLabels: result.nLabels,
        backend: result.fit?.backend ?? null,
        trainSeconds: result.fit?.trainSeconds ?? null,
        roundSeconds: (now - outcome.started) / 1000,
        writeSeconds: (now - outcome.writeStarted) / 1000,
        status: "done",
        // the final estimates replace the interim ones
        interimEstimates: Prisma.DbNull,
        finishedAt: new Date(),
        error: null,
      },
    });
  });
}
