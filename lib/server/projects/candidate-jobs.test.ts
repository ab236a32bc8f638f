import { describe, expect, it } from "vitest";
import * as candidatesRoute from "@/app/api/projects/[projectId]/clusterings/candidates/route";
import { candidateClusteringJob, requestCandidateClustering } from "./candidate-clusterings";
import { db } from "../db";
import { importBundle } from "../imports/imports";
import { asSession, digitsProject, fastWorkerDeps } from "../labeling/labeling-test-fixture";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { runOneJob } from "../jobs/worker-loop";

const worker = { deps: fastWorkerDeps, jobs: [candidateClusteringJob] };

async function get(user: { id: string }, projectId: string) {
  const full = await db().user.findUniqueOrThrow({ where: { id: user.id } });
  return candidatesRoute.GET(await requestAs(full, `/api/projects/${projectId}/clusterings/candidates`), routeContext({ projectId }));
}

describe("the candidate clustering form's view of its jobs", () => {
  it("shows a k-means job queued, then done with its clustering and running time; annotators are refused", async () => {
    const { projectId, owner, annotators } = await digitsProject();
    expect((await get(annotators[0], projectId)).status).toBe(403);
    const empty = await (await get(owner, projectId)).json();
    // data/digits has no named spaces: the form offers the project's embeddings only
    expect(empty).toEqual({ spaces: [], defaultSpace: null, jobs: [] });

    const { jobId } = await requestCandidateClustering(owner, projectId, { method: "kmeans", k: 4, seed: 2 });
    const queued = await (await get(owner, projectId)).json();
    expect(queued.jobs).toHaveLength(1);
    expect(queued.jobs[0]).toMatchObject({ id: jobId, name: "embeddings_kmeans_k4_s2", method: "kmeans", k: 4, seed: 2, space: null, status: "queued", outcome: null, error: null, finishedAt: null });

    expect(await runOneJob("worker-test", worker)).toBe(true);
    const done = (await (await get(owner, projectId)).json()).jobs[0];
    const clustering = await db().clustering.findFirstOrThrow({ where: { projectId, name: "embeddings_kmeans_k4_s2" } });
    expect(done.status).toBe("done");
    expect(done.outcome.clusteringId).toBe(clustering.id);
    expect(done.outcome.k).toBe(4);
    expect(done.outcome.seconds).toBe((clustering.origin as { seconds: number }).seconds);
    expect(done.outcome.seconds).toBeGreaterThan(0);
    expect(done.finishedAt).not.toBeNull();
  });

  it("lists a bundle's embedding spaces, newest job first, and a failed job with its error", async () => {
    const owner = asSession(await createTestUser("RESEARCHER"));
    const { projectId } = await importBundle("data/digits-spaces", owner.id, { name: "Digits spaces", mode: "clusterwise" });
    await requestCandidateClustering(owner, projectId, { space: "pca8", method: "kmeans", k: 3, seed: 0 });
    const second = await requestCandidateClustering(owner, projectId, { space: "noise", method: "kmeans", k: 3, seed: 0 });
    // the second job's space file is gone: the worker fails it with the reason
    await db().job.update({ where: { id: second.jobId }, data: { maxAttempts: 1, createdAt: new Date(Date.now() - 60_000) } });
    await db().embeddingSpace.update({ where: { projectId_name: { projectId, name: "noise" } }, data: { file: "spaces/missing.npy" } });
    expect(await runOneJob("worker-test", worker)).toBe(true);

    const view = await (await get(owner, projectId)).json();
    expect(view.spaces).toEqual(["half_noise", "isomap8", "noise", "pca16", "pca8", "randproj16", "raw", "standardized"]);
    expect(view.defaultSpace).toBe("raw");
    expect(view.jobs.map((j: { name: string }) => j.name)).toEqual(["pca8_kmeans_k3_s0", "noise_kmeans_k3_s0"]);
    const failed = view.jobs[1];
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/missing\.npy/);
    expect(failed.outcome).toBeNull();
    await db().job.updateMany({ where: { projectId, status: "queued" }, data: { status: "cancelled" } });
  });
});
