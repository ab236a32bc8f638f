import { describe, expect, it } from "vitest";
import { createLaneQueues, laneQueue } from "./pg-boss";
import { LANES } from "./definition";

/**
 * Workers and web processes create pg-boss's lane queues as they start, often at once (a CI run's
 * rounds worker died of it): a deadlock between two creations (40P01) or a queue created meanwhile
 * (23505) is looked at again; anything else still fails the start.
 */
function fakeBoss(failures: Record<string, { code: string }[]>, createdElsewhere = new Set<string>()) {
  const queues = new Set<string>();
  const calls: string[] = [];
  return {
    calls,
    queues,
    boss: {
      getQueue: async (name: string) => {
        calls.push(`get ${name}`);
        return queues.has(name) || createdElsewhere.has(name) ? ({ name } as never) : null;
      },
      createQueue: async (name: string) => {
        calls.push(`create ${name}`);
        const failure = failures[name]?.shift();
        if (failure) throw Object.assign(new Error(`PostgreSQL error ${failure.code}`), failure);
        queues.add(name);
      },
    },
  };
}

describe("creating the lane queues", () => {
  it("tries again after a deadlock, and finds a queue another process created meanwhile", async () => {
    const [rounds, heavy] = LANES.map(laneQueue);
    const otherProcess = new Set<string>();
    const fake = fakeBoss({ [rounds]: [{ code: "40P01" }, { code: "40P01" }], [heavy]: [{ code: "23505" }] }, otherProcess);
    // the unique violation means the other process made it: from then on it is there
    const create = fake.boss.createQueue;
    fake.boss.createQueue = async (name: string) => {
      try {
        await create(name);
      } catch (error) {
        if ((error as { code?: string }).code === "23505") otherProcess.add(name);
        throw error;
      }
    };
    await createLaneQueues(fake.boss, () => 0);
    expect(fake.queues.has(rounds)).toBe(true);
    expect(otherProcess.has(heavy)).toBe(true);
    expect(fake.calls.filter((c) => c === `create ${rounds}`)).toHaveLength(3);
    expect(fake.calls.filter((c) => c === `create ${heavy}`)).toHaveLength(1);
  });

  it("leaves an existing queue alone", async () => {
    const fake = fakeBoss({}, new Set(LANES.map(laneQueue)));
    await createLaneQueues(fake.boss, () => 0);
    expect(fake.calls.every((c) => c.startsWith("get "))).toBe(true);
  });

  it("fails on any other error, and on a deadlock that does not go away", async () => {
    const [rounds] = LANES.map(laneQueue);
    await expect(createLaneQueues(fakeBoss({ [rounds]: [{ code: "42501" }] }).boss, () => 0)).rejects.toThrow("PostgreSQL error 42501");
    const stuck = fakeBoss({ [rounds]: Array.from({ length: 10 }, () => ({ code: "40P01" })) });
    await expect(createLaneQueues(stuck.boss, () => 0)).rejects.toThrow("PostgreSQL error 40P01");
    expect(stuck.calls.filter((c) => c === `create ${rounds}`)).toHaveLength(6);
  });
});
