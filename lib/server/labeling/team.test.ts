import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "../db";
import { createTestUser } from "../http/test-requests";
import { asSession, digitsProject } from "./labeling-test-fixture";
import { submitLabel } from "./labels";
import { stageDemand, stageDrawsSettled } from "./stages";
import { nextTasks } from "./tasks";

afterEach(stageDrawsSettled);

/**
 * A team at once (issue #18): 20 simulated annotators label one project on a real database file
 * while a worker runs its rounds. Nobody waits while the budget has room, nothing is lost or
 * duplicated, no task gets more answers than its overlap, and every task's draw record is the
 * one of its stage.
 */
describe("20 annotators at once", () => {
  it("always get a task while the budget has room; every label and draw record holds", async () => {
    const budget = 400;
    const { projectId, annotators: two, truth } = await digitsProject({ seedSize: 20, batchSize: 20, budget, acquisition: "hardnmi", design: "proportional", estimator: "guarded" });
    const more = await Promise.all(Array.from({ length: 18 }, () => createTestUser("ANNOTATOR")));
    await db().projectMember.createMany({ data: more.map((a) => ({ projectId, userId: a.id, role: "ANNOTATOR" as const })) });
    const team = [...two, ...more.map(asSession)];

    // the real worker process (TF.js, supervised on digits), beside the annotators as in the app
    const worker = spawn(process.execPath, ["--import", "tsx", "bin/worker.ts"], { env: process.env, stdio: "ignore" });
    const exited = new Promise((r) => worker.once("exit", r));

    const firstRound = (async () => {
      for (let i = 0; i < 1200 && !(await db().round.findFirst({ where: { projectId, status: "done" } })); i++) await new Promise((r) => setTimeout(r, 100));
    })();
    const waitingWithRoom: string[] = [];
    let calls = 0;
    let sent = 0;
    const accepted = new Set<string>();
    const annotate = async (user: (typeof team)[number], a: number) => {
      for (let n = 0; ; n++) {
        // the database driver answers synchronously: yield as a network round trip would, so the worker's timers run
        await new Promise((r) => setImmediate(r));
        // halfway, the team waits for the worker's first round (however slow its start), so later stages use its ranking
        if (accepted.size >= budget / 2) await firstRound;
        calls++;
        const result = await nextTasks(user, projectId, 1 + (n % 3));
        if (result.state === "budget_reached") return;
        if (result.state === "waiting") {
          const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
          const demand = await stageDemand(db(), project, new Date());
          // the budget's room only shrinks here (no skips, no undo): room now means room then
          if (demand.roomTasks > 0) waitingWithRoom.push(`${user.id}: ${JSON.stringify(demand)}`);
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        for (const task of result.tasks) {
          const body = { taskId: task.id, kind: "label" as const, classIndex: truth[task.item.index], idempotencyKey: `team-${a}-${n}-${task.id}` };
          // one answer in ten is sent twice with the same key, as a retry after a lost response
          const tries = (n + a) % 10 === 0 ? 2 : 1;
          // an annotator takes a moment per answer
          await new Promise((r) => setTimeout(r, 20 + ((a * 7 + n * 13) % 40)));
          for (let t = 0; t < tries; t++) {
            sent++;
            try {
              accepted.add((await submitLabel(user, projectId, body)).label.id);
            } catch (error) {
              // the budget filled while this task was held: the late answer may be refused
              if (!/budget|not leased/.test(String(error))) throw error;
            }
          }
        }
      }
    };
    await Promise.all(team.map((u, a) => annotate(u, a)));
    worker.kill("SIGTERM");
    await exited;
    await stageDrawsSettled();

    expect(waitingWithRoom).toEqual([]);
    expect(calls).toBeGreaterThan(budget / 3);
    expect(sent).toBeGreaterThan(accepted.size);

    // nothing lost, nothing duplicated: every accepted label is stored once, and the budget is met exactly
    const labels = await db().label.findMany({ where: { projectId, withdrawn: false }, include: { task: { include: { batch: true } } } });
    expect(new Set(labels.map((l) => l.id))).toEqual(accepted);
    expect(labels.filter((l) => l.kind === "label")).toHaveLength(budget);
    // no task over its overlap (1), and no item drawn twice
    const perTask = new Map<string, number>();
    for (const l of labels) perTask.set(l.taskId, (perTask.get(l.taskId) ?? 0) + 1);
    expect(Math.max(...perTask.values())).toBe(1);
    const tasks = await db().task.findMany({ where: { projectId }, include: { batch: true }, orderBy: { drawOrder: "asc" } });
    expect(new Set(tasks.map((t) => t.itemIndex)).size).toBe(tasks.length);

    // every task's draw record is its stage's: one draw per stage, in order, from the rows not drawn before it
    const stages = await db().batch.findMany({ where: { projectId }, orderBy: { index: "asc" }, include: { tasks: { orderBy: { drawOrder: "asc" } } } });
    const rounds = await db().round.findMany({ where: { projectId, status: "done" }, orderBy: { index: "asc" } });
    expect(rounds.length).toBeGreaterThanOrEqual(1);
    // stages were drawn both before the first round finished (uniformly) and with a round's ranking
    expect(stages.some((s) => s.index > 0 && s.drawnByRoundIndex === null)).toBe(true);
    expect(stages.some((s) => s.drawnByRoundIndex !== null)).toBe(true);
    let before = 0;
    for (const stage of stages) {
      expect(stage.tasks).toHaveLength(stage.size);
      expect(stage.tasks.map((t) => t.drawOrder)).toEqual(Array.from({ length: stage.size }, (_, i) => before + i));
      expect(stage.poolSize).toBe(1797 - before);
      expect(stage.tasks.every((t) => t.design === stage.design)).toBe(true);
      if (stage.index > 0) expect(stage.size).toBeGreaterThanOrEqual(Math.min(20, budget - before));
      if (stage.drawnByRoundIndex === null) {
        expect(stage.design).toBe("uniform");
        expect(stage.tasks.every((t) => Math.abs(t.q - stage.size / stage.poolSize!) < 1e-12)).toBe(true);
      } else {
        // drawn with a finished round's ranking, after that round finished
        const by = rounds.find((r) => r.index === stage.drawnByRoundIndex)!;
        expect(by.finishedAt!.getTime()).toBeLessThanOrEqual(stage.createdAt.getTime());
        expect(stage.design).toBe("proportional");
        const evidence = stage.evidence as { batches: { round: number; poolSize: number }[]; predictions: { row: number }[] };
        expect(evidence.batches.map((b) => [b.round, b.poolSize])).toEqual([[stage.index, stage.poolSize]]);
        expect(evidence.predictions.map((p) => p.row).sort()).toEqual(stage.tasks.map((t) => t.itemIndex).sort());
      }
      before += stage.size;
    }
    // each round used a settled prefix of stages: its labels are exactly those of stages 0..s for some s
    for (const round of rounds) {
      const used = labels.filter((l) => l.usedByRound !== null && l.usedByRound <= round.index);
      const through = Math.max(...used.map((l) => l.task.batch.index));
      expect(labels.filter((l) => l.task.batch.index <= through).every((l) => l.usedByRound !== null && l.usedByRound <= round.index)).toBe(true);
      expect(round.nLabels).toBe(used.length);
    }
  }, 180_000);
});
