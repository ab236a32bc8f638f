import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LabelOutbox, newIdempotencyKey, type KeyValueStore, type OutboxOp, type SendResult } from "./label-outbox";

class MemoryStore implements KeyValueStore {
  values = new Map<string, string>();
  getItem = (key: string) => this.values.get(key) ?? null;
  setItem = (key: string, value: string) => void this.values.set(key, value);
  removeItem = (key: string) => void this.values.delete(key);
}

function harness(responses: SendResult[], store: KeyValueStore | null = new MemoryStore()) {
  const sentKeys: string[] = [];
  const events: string[] = [];
  const outbox = new LabelOutbox({
    store,
    storageKey: "outbox-test",
    retryDelaysMs: [100, 200],
    send: async (op) => {
      sentKeys.push(op.key);
      return responses.shift() ?? { status: 200, data: { ok: true } };
    },
    listener: {
      sent: (op) => events.push(`sent ${op.key}`),
      rejected: (op, status, message) => events.push(`rejected ${op.key} ${status} ${message}`),
      unauthenticated: () => events.push("unauthenticated"),
      changed: () => {},
    },
  });
  return { outbox, sentKeys, events, store };
}

const answer = (key: string, taskId: string, classIndex = 1): OutboxOp => ({ type: "answer", key, taskId, body: { kind: "label", classIndex } });

describe("LabelOutbox", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("retries a failed send with the same idempotency key until the server confirms it once", async () => {
    const { outbox, sentKeys, events } = harness([{ status: 0, data: null }, { status: 503, data: null }, { status: 200, data: {} }]);
    outbox.enqueue(answer("key-a", "task-1"));
    outbox.enqueue(answer("key-b", "task-2"));
    await vi.advanceTimersByTimeAsync(0);
    expect(outbox.retrying).toBe(true);
    expect(outbox.pendingTaskIds()).toEqual(new Set(["task-1", "task-2"]));
    await vi.advanceTimersByTimeAsync(100); // second try: 503
    await vi.advanceTimersByTimeAsync(200); // third try: confirmed, then key-b goes out
    expect(sentKeys).toEqual(["key-a", "key-a", "key-a", "key-b"]);
    expect(events).toEqual(["sent key-a", "sent key-b"]);
    expect(outbox.size).toBe(0);
  });

  it("drops a refused answer with the server's reason, and the undo queued behind it", async () => {
    const conflict = { status: 409, data: { error: { code: "conflict", message: "This task is not leased to you." } } };
    const { outbox, sentKeys, events } = harness([conflict]);
    outbox.enqueue(answer("key-a", "task-1"));
    outbox.enqueue({ type: "undo", key: "undo-a", taskId: "task-1" });
    outbox.enqueue(answer("key-b", "task-2"));
    await vi.advanceTimersByTimeAsync(0);
    expect(sentKeys).toEqual(["key-a", "key-b"]);
    expect(events).toEqual(["rejected key-a 409 This task is not leased to you.", "sent key-b"]);
  });

  it("stops on 401 and keeps the answer stored, so a new page sends it after sign-in", async () => {
    const first = harness([{ status: 401, data: null }]);
    first.outbox.enqueue(answer("key-a", "task-1", 7));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(first.events).toEqual(["unauthenticated"]);
    expect(first.sentKeys).toEqual(["key-a"]);

    const second = harness([], first.store);
    expect(second.outbox.pendingTaskIds()).toEqual(new Set(["task-1"]));
    second.outbox.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(second.events).toEqual(["sent key-a"]);
    expect(first.store!.getItem("outbox-test")).toBeNull();
  });

  it("takes back an answer not yet sent, but not one in flight", async () => {
    let release: (r: SendResult) => void = () => {};
    const sent: string[] = [];
    const outbox = new LabelOutbox({
      store: null,
      storageKey: "unused",
      send: (op) => {
        sent.push(op.key);
        return new Promise((resolve) => (release = resolve));
      },
      listener: { sent: () => {}, rejected: () => {}, unauthenticated: () => {}, changed: () => {} },
    });
    outbox.enqueue(answer("key-a", "task-1"));
    outbox.enqueue(answer("key-b", "task-2"));
    expect(outbox.cancel("key-a")).toBe(false);
    expect(outbox.cancel("key-b")).toBe(true);
    release({ status: 200, data: {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(["key-a"]);
    expect(outbox.size).toBe(0);
  });

  it("makes idempotency keys the server accepts (>= 8 characters) that do not repeat", () => {
    const keys = new Set(Array.from({ length: 1000 }, newIdempotencyKey));
    expect(keys.size).toBe(1000);
    expect([...keys][0]).toMatch(/^[0-9a-f]{32}$/);
  });
});
