import { describe, expect, it } from "vitest";
import * as simulationRoute from "@/app/api/projects/[projectId]/simulations/[simulationId]/route";
import * as simulationsRoute from "@/app/api/projects/[projectId]/simulations/route";
import { createKnnSurrogateFactory } from "@/lib/cereal/fakes/knn-surrogate";
import { createPairComponentsSurrogateFactory } from "@/lib/cereal/fakes/pair-components-surrogate";
import { db } from "../db";
import { digitsProject } from "../labeling/labeling-test-fixture";
import { simulationJob } from "./simulations";
import { createTestProject } from "../projects/test-projects";
import { requestAs, routeContext } from "../http/test-requests";
import { runOneJob } from "../jobs/worker-loop";
import { cancelJob } from "../jobs/queue";
import type { SurrogateFactory } from "@/lib/cereal/method/surrogate";

const userRow = (id: string) => db().user.findUniqueOrThrow({ where: { id } });
const worker = { deps: { createSurrogate: createKnnSurrogateFactory(), createPairwiseSurrogate: createPairComponentsSurrogateFactory() }, jobs: [simulationJob] };

async function start(userId: string | null, projectId: string, body: unknown) {
  const user = userId ? await userRow(userId) : null;
  return simulationsRoute.POST(await requestAs(user, `/api/projects/${projectId}/simulations`, { method: "POST", json: body }), routeContext({ projectId }));
}
async function list(userId: string, projectId: string) {
  return (await simulationsRoute.GET(await requestAs(await userRow(userId), `/api/projects/${projectId}/simulations`), routeContext({ projectId }))).json();
}
async function one(userId: string | null, projectId: string, simulationId: string) {
  const user = userId ? await userRow(userId) : null;
  return simulationRoute.GET(await requestAs(user, `/api/projects/${projectId}/simulations/${simulationId}`), routeContext({ projectId, simulationId }));
}

describe("simulations", () => {
  it("runs an oracle simulation as a worker job and serves its rounds, true values and AEC", async () => {
    const { projectId, owner } = await digitsProject();
    const started = await start(owner.id, projectId, { acquisition: "random", estimator: "argmax", seedSize: 20, batch: 20, budget: 60, seed: 3 });
    expect(started.status).toBe(200);
    const { id } = await started.json();
    expect((await list(owner.id, projectId)).simulations).toMatchObject([{ id, status: "queued", options: { acquisition: "random", budget: 60, fixmatch: false } }]);
    expect(await (await one(owner.id, projectId, id)).json()).toMatchObject({ status: "queued", result: null });

    expect(await runOneJob("w", worker)).toBe(true);
    const [run] = (await list(owner.id, projectId)).simulations;
    expect(run.status).toBe("done");
    expect(run.progress).toEqual({ round: 2, nLabels: 60, budget: 60 });

    const { result } = await (await one(owner.id, projectId, id)).json();
    expect(result.rounds.map((r: { nLabels: number }) => r.nLabels)).toEqual([20, 40, 60]);
    const clusterings = await db().clustering.findMany({ where: { projectId } });
    for (const c of clusterings) {
      // the true value is the bundle's (scikit-learn) NMI, and every error is |estimate - truth|
      expect(result.rounds[0].true[c.name].nmi).toBeCloseTo((c.trueMetrics as { nmi: number }).nmi, 9);
      const last = result.rounds[2];
      expect(last.absErr[c.name].nmi).toBeCloseTo(Math.abs(last.estimate[c.name].nmi - last.true[c.name].nmi), 12);
    }
    expect(result.summary.rounds).toBe(3);
    expect(result.summary.aec.nmi).toBeGreaterThan(0);
    expect(run.summary.aec.nmi).toBe(result.summary.aec.nmi);
  });

  it("runs the recommended configuration: the design, the trainer guard and the residual switch reach the simulator", async () => {
    const { projectId, owner } = await digitsProject();
    const options = { acquisition: "hardnmi", design: "proportional", estimator: "guarded", fixmatch: true, trainerGuard: true, residualWhenCalibrated: 0.05, seedSize: 20, batch: 20, budget: 60, steps: 8, seed: 1 };
    const { id } = await (await start(owner.id, projectId, options)).json();
    expect(await runOneJob("w", worker)).toBe(true);
    const { result } = await (await one(owner.id, projectId, id)).json();
    expect(result.config).toMatchObject({ acquisition: "hardnmi", design: "proportional", estimator: "guarded", trainerGuard: true, residualWhenCalibrated: 0.05, options });
    expect(result.rounds).toHaveLength(3);
  });

  it("runs a pairwise simulation with a pair design and uniform share, on a pairwise project as on a clusterwise one", async () => {
    const { projectId, owner } = await digitsProject({ mode: "pairwise" });
    const options = { mode: "pairwise", pairDesign: "anchor", pairUniformShare: 0.25, seedSize: 100, batch: 100, budget: 300, seed: 2 };
    const { id } = await (await start(owner.id, projectId, options)).json();
    expect(await runOneJob("w", worker)).toBe(true);
    const { result } = await (await one(owner.id, projectId, id)).json();
    expect(result.config).toMatchObject({ mode: "pairwise", pairDesign: "anchor", uniformShare: 0.25, options });
    expect(result.rounds.map((r: { nLabels: number }) => r.nLabels)).toEqual([100, 200, 300]);
    expect(result.summary.aecPer1000Labels.nmi).toBeGreaterThan(0);
    // pairs are many more than items: a pairwise budget may exceed n, a clusterwise one may not
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    expect((await start(owner.id, projectId, { mode: "pairwise", budget: project.n + 1 })).status).toBe(200);
    const tooMany = await start(owner.id, projectId, { budget: project.n + 1 });
    expect((await tooMany.json()).error.message).toBe(`The budget (${project.n + 1}) cannot exceed the ${project.n} items.`);
    const badShare = await start(owner.id, projectId, { mode: "pairwise", pairUniformShare: 2 });
    expect((await badShare.json()).error.message).toMatch(/pairUniformShare: pairUniformShare is a share from 0 to 1/);
  });

  it("stops a cancelled simulation at its next training step instead of running it to the end", async () => {
    const { projectId, owner } = await digitsProject();
    const { id } = await (await start(owner.id, projectId, { acquisition: "random", estimator: "argmax", seedSize: 20, batch: 20, budget: 200, seed: 3 })).json();
    const knn = createKnnSurrogateFactory();
    let fits = 0;
    // a k-NN surrogate whose fit reports four training steps, as the real trainers do; the owner cancels while round 1 trains
    const createSurrogate: SurrogateFactory = async (embeddings, numClasses) => {
      const inner = await knn(embeddings, numClasses);
      return {
        ...inner,
        async fit(labeled, unlabeled, options, onProgress) {
          fits++;
          if (fits === 2) await cancelJob(id);
          for (let step = 1; step <= 4; step++) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            onProgress?.({ step, total: 4 });
          }
          return inner.fit(labeled, unlabeled, options, onProgress);
        },
      };
    };
    expect(await runOneJob("w", { ...worker, deps: { ...worker.deps, createSurrogate }, jobId: id })).toBe(true);
    const job = await db().job.findUniqueOrThrow({ where: { id } });
    expect(job.status).toBe("cancelled");
    expect(job.result).toBeNull();
    // 200 labels in batches of 20 are 10 rounds; the cancel lands at the next progress write (after round 1), the stop at round 2's first step
    expect(fits).toBeLessThanOrEqual(3);
  });

  it("refuses bad input (400), a bundle without labels (400), an annotator (403) and no session (401)", async () => {
    const { projectId, owner, annotators } = await digitsProject();
    expect((await start(null, projectId, {})).status).toBe(401);
    expect((await start(annotators[0].id, projectId, {})).status).toBe(403);
    expect((await start(owner.id, projectId, { acquisition: "psychic" })).status).toBe(400);
    expect((await start(owner.id, projectId, { estimator: "magic" })).status).toBe(400);
    const misfit = await start(owner.id, projectId, { acquisition: "random", design: "proportional" });
    expect(misfit.status).toBe(400);
    expect((await misfit.json()).error.message).toMatch(/design: The design does not fit the acquisition: Random draws uniform/);
    const gap = await start(owner.id, projectId, { residualWhenCalibrated: 2 });
    expect((await gap.json()).error.message).toMatch(/residualWhenCalibrated: residualWhenCalibrated is a gap between accuracy and confidence from 0 to 1/);
    const tooBig = await start(owner.id, projectId, { seedSize: 100, budget: 50 });
    expect((await tooBig.json()).error.message).toBe("The seed batch (100) cannot exceed the budget (50).");
    const unlabeled = await createTestProject({ classes: 0 });
    const refused = await start(unlabeled.owner.id, unlabeled.projectId, {});
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toMatch(/no reference labels/);
    const { id } = await (await start(owner.id, projectId, { budget: 100 })).json();
    expect((await one(annotators[0].id, projectId, id)).status).toBe(403);
    expect((await one(owner.id, projectId, "nope")).status).toBe(404);
    expect((await one(null, projectId, id)).status).toBe(401);
  });
});
