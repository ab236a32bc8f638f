import { describe, expect, it } from "vitest";
import * as settingsRoute from "@/app/api/projects/[projectId]/settings/route";
import { RECOMMENDED } from "@/lib/cereal/method/recommended";
import { RECOMMENDED_PAIRS } from "@/lib/cereal/pairwise/pair-designs";
import { db } from "../db";
import { exportConfig } from "../exports/exports";
import { requestAs, routeContext } from "../http/test-requests";
import { addTestLabels, createTestProject } from "./test-projects";

type User = { id: string; sessionVersion: number };
const patch = async (user: User, projectId: string, json: unknown) =>
  settingsRoute.PATCH(await requestAs(user, `/api/projects/${projectId}/settings`, { method: "PATCH", json }), routeContext({ projectId }));
const get = async (user: User, projectId: string) => settingsRoute.GET(await requestAs(user, `/api/projects/${projectId}/settings`), routeContext({ projectId }));

describe("project settings", () => {
  it("the owner changes every setting; the values are stored", async () => {
    const { projectId, owner } = await createTestProject();
    const response = await patch(owner, projectId, {
      mode: "pairwise",
      classMode: "open",
      classes: [{ name: "cat", description: "felines" }, { name: "dog" }],
      guidelines: "Label the animal in front.",
      acquisition: "bald",
      fixmatch: false,
      seedSize: 20,
      batchSize: 10,
      budget: 300,
      fixmatchSteps: 64,
      fixmatchWarmSteps: 16,
      residualWhenCalibrated: 0.05,
      overlap: 3,
      annotatorsSeeEstimates: true,
      paused: true,
    });
    expect(response.status).toBe(200);
    const { settings } = await response.json();
    expect(settings).toMatchObject({ mode: "pairwise", classMode: "open", acquisition: "bald", fixmatch: false, seedSize: 20, batchSize: 10, budget: 300, fixmatchSteps: 64, fixmatchWarmSteps: 16, residualWhenCalibrated: 0.05, overlap: 3, annotatorsSeeEstimates: true, paused: true, labels: 0 });
    expect(settings.classes).toEqual([{ name: "cat", description: "felines" }, { name: "dog", description: "" }]);
    const stored = await db().project.findUniqueOrThrow({ where: { id: projectId }, include: { classes: { orderBy: { index: "asc" } } } });
    expect(stored).toMatchObject({ mode: "pairwise", guidelines: "Label the animal in front.", overlap: 3, paused: true });
    expect(stored.classes.map((c) => [c.index, c.name])).toEqual([[0, "cat"], [1, "dog"]]);
    expect((await (await get(owner, projectId)).json()).settings.budget).toBe(300);
    // null turns warm start off again: every round from scratch
    expect((await (await patch(owner, projectId, { fixmatchWarmSteps: null })).json()).settings.fixmatchWarmSteps).toBeNull();
    expect((await db().project.findUniqueOrThrow({ where: { id: projectId } })).fixmatchWarmSteps).toBeNull();
    // and the residual switch: null draws by the acquisition in every round
    expect((await db().project.findUniqueOrThrow({ where: { id: projectId } })).residualWhenCalibrated).toBe(0.05);
    expect((await (await patch(owner, projectId, { residualWhenCalibrated: null })).json()).settings.residualWhenCalibrated).toBeNull();
  });

  it("keeps the sampling design consistent with the acquisition", async () => {
    const { projectId, owner } = await createTestProject();
    const settings = async (json: unknown) => (await (await patch(owner, projectId, json)).json()).settings;
    // new projects get the recommended configuration (lib/cereal/method/recommended.ts)
    const { acquisition, design, estimator, fixmatch, fixmatchSteps, fixmatchWarmSteps, residualWhenCalibrated } = RECOMMENDED;
    expect((await (await get(owner, projectId)).json()).settings).toMatchObject({ acquisition, design, estimator, fixmatch, fixmatchSteps, fixmatchWarmSteps, residualWhenCalibrated });
    expect(RECOMMENDED).toMatchObject({ acquisition: "hardnmi", design: "proportional", estimator: "guarded", fixmatch: true, fixmatchSteps: 1024 });
    expect(await settings({ design: "top-score" })).toMatchObject({ acquisition: "hardnmi", design: "top-score" });
    // Random draws uniformly; a scoring acquisition keeps a design it can use, else draws proportionally
    expect(await settings({ acquisition: "random" })).toMatchObject({ acquisition: "random", design: "uniform" });
    expect(await settings({ acquisition: "bald" })).toMatchObject({ acquisition: "bald", design: "proportional" });
    expect(await settings({ design: "top-score" })).toMatchObject({ design: "top-score" });
    expect(await settings({ acquisition: "softnmi" })).toMatchObject({ acquisition: "softnmi", design: "top-score" });
    const refused = await patch(owner, projectId, { acquisition: "random", design: "proportional" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toBe("The random acquisition draws with uniform, not proportional; choose one of those or another acquisition.");
    expect(await db().project.findUniqueOrThrow({ where: { id: projectId } })).toMatchObject({ acquisition: "softnmi", design: "top-score" });
  });

  it("validates each field with a message", async () => {
    const { projectId, owner } = await createTestProject();
    const bad = async (json: unknown, message: RegExp) => {
      const r = await patch(owner, projectId, json);
      expect(r.status).toBe(400);
      expect((await r.json()).error.message).toMatch(message);
    };
    await bad({ acquisition: "greedy" }, /acquisition: Invalid option: expected one of "random"\|"maxentropy"\|"bald"\|"crossentropy"\|"hardnmi"\|"softnmi"\|"residual"/);
    await bad({ overlap: 0 }, /overlap: Use at least 1/);
    await bad({ budget: 1.5 }, /budget: Use a whole number/);
    await bad({ seedSize: 2000 }, /The seed batch \(2000\) cannot exceed the budget \(1000\)/);
    await bad({ classes: [{ name: "a" }, { name: "A" }] }, /Class names must be different/);
    await bad({ colour: "red" }, /Unrecognized key: "colour"/);
    await bad({ pairDesign: "closest" }, /pairDesign: pairDesign is one of random, uncertain, anchor/);
    await bad({ pairUniformShare: 1.5 }, /pairUniformShare: pairUniformShare is a share: use 0 \(only the design's own pairs\) to 1/);
    await bad({ pairUniformShare: "half" }, /pairUniformShare: pairUniformShare is a number from 0 to 1/);
    await bad({ fixmatchWarmSteps: 0 }, /fixmatchWarmSteps: fixmatchWarmSteps is at least 1 step; null turns warm start off/);
    await bad({ residualWhenCalibrated: 1.5 }, /residualWhenCalibrated: residualWhenCalibrated is a gap between accuracy and confidence from 0 to 1 \(e.g. 0.05\); null turns the switch off/);
    await bad({ residualWhenCalibrated: "tight" }, /residualWhenCalibrated: residualWhenCalibrated is a gap between accuracy and confidence from 0 to 1 \(e.g. 0.05\), or null/);
  });

  it("has the pair design as a setting: recommended for new projects, changed by the owner, in the configuration export", async () => {
    const { projectId, owner } = await createTestProject();
    expect(RECOMMENDED_PAIRS).toEqual({ pairDesign: "random", pairUniformShare: 0.5 });
    expect((await (await get(owner, projectId)).json()).settings).toMatchObject(RECOMMENDED_PAIRS);
    const response = await patch(owner, projectId, { mode: "pairwise", pairDesign: "uncertain", pairUniformShare: 0.25 });
    expect((await response.json()).settings).toMatchObject({ mode: "pairwise", pairDesign: "uncertain", pairUniformShare: 0.25 });
    const config = await (await exportConfig(owner, projectId)).json();
    expect(config.settings).toMatchObject({ pairDesign: "uncertain", pairUniformShare: 0.25 });
    // a clusterwise project never reads them: its export leaves them out
    await patch(owner, projectId, { mode: "clusterwise" });
    expect(Object.keys((await (await exportConfig(owner, projectId)).json()).settings)).not.toContain("pairDesign");
  });

  it("asks for a class from the list by default; one class at a time is a setting that may change while labels exist, in the configuration export", async () => {
    const { projectId, owner, annotator } = await createTestProject({ classes: 3 });
    expect((await (await get(owner, projectId)).json()).settings.labelBy).toBe("pick");
    await addTestLabels(projectId, annotator.id, 2);
    const response = await patch(owner, projectId, { labelBy: "verify" });
    expect(response.status).toBe(200);
    expect((await response.json()).settings).toMatchObject({ labelBy: "verify", labels: 2 });
    expect((await (await exportConfig(owner, projectId)).json()).project.labelBy).toBe("verify");
    const bad = await patch(owner, projectId, { labelBy: "guess" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/labelBy: labelBy is pick or verify: how a clusterwise project's label page asks for a class/);
  });

  it("refuses to change the mode or the classes once labels exist (409), but allows the rest", async () => {
    const { projectId, owner, annotator } = await createTestProject({ classes: 3 });
    await addTestLabels(projectId, annotator.id, 2);
    const mode = await patch(owner, projectId, { mode: "pairwise" });
    expect(mode.status).toBe(409);
    expect((await mode.json()).error.message).toBe(
      "This project already has 2 labels; changing the annotation mode would change what they mean. Class descriptions and every other setting can still change; start a new project for a different mode.",
    );
    const classes = await patch(owner, projectId, { classes: [{ name: "class 0" }, { name: "class 1" }] });
    expect(classes.status).toBe(409);
    expect((await classes.json()).error.message).toMatch(/already has 2 labels; changing the classes would change what they mean/);

    const before = await db().referenceClass.findMany({ where: { projectId }, orderBy: { index: "asc" } });
    const described = await patch(owner, projectId, { classes: ["class 0", "class 1", "class 2"].map((name) => ({ name, description: `about ${name}` })), budget: 500, mode: "clusterwise" });
    expect(described.status).toBe(200);
    expect((await described.json()).settings).toMatchObject({ budget: 500, labels: 2, classes: [{ name: "class 0", description: "about class 0" }, expect.anything(), expect.anything()] });
    const after = await db().referenceClass.findMany({ where: { projectId }, orderBy: { index: "asc" } });
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(after.map((c) => c.description)).toEqual(["about class 0", "about class 1", "about class 2"]);
  });

  it("is the owner's: annotator 403, non-member 403, unknown project 404", async () => {
    const { projectId, annotator, outsider } = await createTestProject();
    for (const user of [annotator, outsider]) {
      expect((await patch(user, projectId, { paused: true })).status).toBe(403);
      expect((await get(user, projectId)).status).toBe(403);
    }
    expect((await patch(outsider, "missing", { paused: true })).status).toBe(404);
    expect((await db().project.findUniqueOrThrow({ where: { id: projectId } })).paused).toBe(false);
  });
});
