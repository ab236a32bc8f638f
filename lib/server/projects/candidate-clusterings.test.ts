import { describe, expect, it } from "vitest";
import * as candidatesRoute from "@/app/api/projects/[projectId]/clusterings/candidates/route";
import { readNpy } from "@/lib/data/npy";
import { nmi } from "@/lib/metrics";
import { candidateClusteringJob, requestCandidateClustering } from "./candidate-clusterings";
import { db } from "../db";
import { importBundle } from "../imports/imports";
import { asSession, digitsProject, fastWorkerDeps } from "../labeling/labeling-test-fixture";
import { projectFile } from "../project-data/paths";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { runOneJob } from "../jobs/worker-loop";

const worker = { deps: fastWorkerDeps, jobs: [candidateClusteringJob] };

async function post(user: { id: string } | null, projectId: string, json: unknown) {
  const full = user ? await db().user.findUniqueOrThrow({ where: { id: user.id } }) : null;
  return candidatesRoute.POST(await requestAs(full, `/api/projects/${projectId}/clusterings/candidates`, { method: "POST", json }), routeContext({ projectId }));
}

describe("candidate clusterings", () => {
  it("the owner queues k-means; the worker writes clusterings/NAME.npy and records it with its running time", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject();
    expect((await post(annotators[0], projectId, { method: "kmeans", k: 10 })).status).toBe(403);
    const r = await post(owner, projectId, { method: "kmeans", k: 10, seed: 3 });
    expect(r.status).toBe(200);
    expect((await r.json()).job).toMatchObject({ name: "embeddings_kmeans_k10_s3" });
    // the same request again, while queued
    expect((await post(owner, projectId, { method: "kmeans", k: 10, seed: 3 })).status).toBe(409);

    expect(await runOneJob("worker-test", worker)).toBe(true);
    const job = await db().job.findFirstOrThrow({ where: { projectId, kind: "cluster" } });
    expect(job.status).toBe("done");
    const clustering = await db().clustering.findFirstOrThrow({ where: { projectId, name: "embeddings_kmeans_k10_s3" } });
    expect(clustering).toMatchObject({ k: 10, file: "clusterings/embeddings_kmeans_k10_s3.npy" });
    const origin = clustering.origin as { algorithm: string; params: Record<string, unknown>; seconds: number };
    expect(origin.algorithm).toBe("kmeans");
    expect(origin.params).toMatchObject({ k: 10, seed: 3, restarts: 10, init: "k-means++" });
    expect(origin.seconds).toBeGreaterThan(0);
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const labels = await readNpy(projectFile(project, clustering.file));
    expect(labels.shape).toEqual([1797]);
    // k-means on the digits' pixels: NMI about 0.74 (scikit-learn's KMeans gets 0.747)
    expect(nmi(truth, labels.data)).toBeGreaterThan(0.7);

    // made once: asking again is a conflict
    const again = await post(owner, projectId, { method: "kmeans", k: 10, seed: 3 });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe("This project already has the clustering 'embeddings_kmeans_k10_s3'.");
  });

  it("refuses spectral clustering above its item limit, saying why and what to use instead", async () => {
    const { projectId, owner } = await digitsProject();
    // the limit is checked on the project's N before anything is read: a larger N recorded on the project stands in for a larger bundle
    await db().project.update({ where: { id: projectId }, data: { n: 20_001 } });
    const r = await post(owner, projectId, { method: "spectral", k: 10 });
    expect(r.status).toBe(400);
    expect((await r.json()).error.message).toBe(
      "Spectral clustering is limited to 20,000 items (its nearest-neighbour search grows with the square of N); this project has 20,001. Use k-means, or cluster offline and add the result with `cereal add-clustering`.",
    );
    expect(await db().job.count({ where: { projectId, kind: "cluster" } })).toBe(0);
  });

  it("clusters one of the project's embedding spaces (digits-spaces, pca8) spectrally and records the space", async () => {
    const owner = asSession(await createTestUser("RESEARCHER"));
    const { projectId } = await importBundle("data/digits-spaces", owner.id, { name: "Digits spaces", mode: "clusterwise" });
    const { name } = await requestCandidateClustering(owner, projectId, { space: "pca8", method: "spectral", k: 10, seed: 1 });
    expect(name).toBe("pca8_spectral_k10_s1");
    expect(await runOneJob("worker-test", worker)).toBe(true);
    const clustering = await db().clustering.findFirstOrThrow({ where: { projectId, name } });
    expect(clustering.space).toBe("pca8");
    expect((clustering.origin as { algorithm: string; params: { neighbours: number } }).algorithm).toBe("spectral");
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const labels = (await readNpy(projectFile(project, clustering.file))).data;
    const truth = (await readNpy("data/digits-spaces/labels.npy")).data;
    // spectral clustering of the 8 leading principal components: NMI about 0.8
    expect(nmi(truth, labels)).toBeGreaterThan(0.75);
  });

  it("refuses an unknown space, a bad method and k >= N with messages a person can act on", async () => {
    const { projectId, owner } = await digitsProject();
    const unknown = await post(owner, projectId, { space: "umap", method: "kmeans", k: 5 });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.message).toBe("This project has no embedding space 'umap'; leave space out to use its embeddings.");
    const method = await post(owner, projectId, { method: "dbscan", k: 5 });
    expect(method.status).toBe(400);
    expect((await method.json()).error.message).toMatch(/method must be one of kmeans, spectral/);
    await expect(requestCandidateClustering(owner, projectId, { method: "spectral", k: 1797 })).rejects.toThrow(/k must be below the number of items \(1797\)/);
  });
});
