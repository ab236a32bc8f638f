import type { ApiResult } from "@/app/components/api";

/**
 * The labels an annotator gave that the server has not confirmed yet. The workspace moves on the
 * moment a key is pressed (optimistic); the outbox then sends each answer in order, retrying with
 * the same idempotency key after a network failure or a server error, so a flaky connection
 * never loses a label and a retry never adds a second one. It lives in localStorage, so answers
 * given just before a session expired are sent after signing in again.
 */
export interface AnswerBody {
  kind: "label" | "skip" | "unsure";
  classIndex?: number;
  answer?: "same" | "different";
  reason?: string;
  /** how long the answer took (answer-timer.ts), in whole milliseconds */
  durationMs?: number;
  /** one class at a time: the "same class?" answers it took (class-verifier.tsx) */
  verifyAnswers?: number;
}

export type OutboxOp = { type: "answer"; key: string; taskId: string; body: AnswerBody } | { type: "undo"; key: string; taskId: string };

/** The server's answer; status 0 means the request never got one (offline, connection reset). */
export type SendResult = ApiResult;

export interface OutboxListener {
  sent(op: OutboxOp, data: unknown): void;
  /** The server refused the operation for good (409 conflict, 400, 403, 404); it was dropped. */
  rejected(op: OutboxOp, status: number, message: string): void;
  /** 401: sending stops, the operations stay stored for after sign-in. */
  unauthenticated(): void;
  changed(): void;
}

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface OutboxOptions {
  send(op: OutboxOp): Promise<SendResult>;
  listener: OutboxListener;
  store: KeyValueStore | null;
  storageKey: string;
  retryDelaysMs?: readonly number[];
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000];

/** A random idempotency key; getRandomValues also works on plain-http hosts, where randomUUID does not. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const retryable = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;

export class LabelOutbox {
  private ops: OutboxOp[];
  private inFlight: OutboxOp | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private stopped = false;
  private disposed = false;

  constructor(private readonly options: OutboxOptions) {
    this.ops = this.load();
  }

  /** Operations not yet confirmed, the one in flight included. */
  get size(): number {
    return this.ops.length;
  }

  /** True while waiting to retry after a failed send. */
  get retrying(): boolean {
    return this.timer !== null;
  }

  /** Tasks with an answer on its way: the server still lists them as leased to us. */
  pendingTaskIds(): Set<string> {
    return new Set(this.ops.filter((op) => op.type === "answer").map((op) => op.taskId));
  }

  enqueue(op: OutboxOp) {
    this.ops.push(op);
    this.save();
    this.options.listener.changed();
    void this.pump();
  }

  /** Takes back an operation that has not been sent yet (an undo right after the answer); false once it is in flight or done. */
  cancel(key: string): boolean {
    if (this.inFlight?.key === key) return false;
    const index = this.ops.findIndex((op) => op.key === key);
    if (index < 0) return false;
    this.ops.splice(index, 1);
    this.save();
    this.options.listener.changed();
    return true;
  }

  /** Sends now: on start, when the browser comes back online, or after signing in again. */
  flush() {
    this.stopped = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.pump();
  }

  dispose() {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async pump(): Promise<void> {
    if (this.inFlight || this.stopped || this.timer || this.disposed) return;
    const op = this.ops[0];
    if (!op) return;
    this.inFlight = op;
    let result: SendResult;
    try {
      result = await this.options.send(op);
    } catch {
      result = { status: 0, data: null };
    }
    this.inFlight = null;
    if (this.disposed) return;
    const { listener } = this.options;
    if (retryable(result.status)) {
      const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
      const delay = delays[Math.min(this.attempt, delays.length - 1)];
      this.attempt += 1;
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.pump();
      }, delay);
      listener.changed();
      return;
    }
    this.attempt = 0;
    if (result.status === 401) {
      this.stopped = true;
      listener.unauthenticated();
      return;
    }
    this.ops = this.ops.filter((o) => o.key !== op.key);
    if (result.status >= 200 && result.status < 300) {
      this.save();
      listener.sent(op, result.data);
    } else {
      // An undo queued behind a refused answer would withdraw an earlier label instead.
      if (op.type === "answer") this.ops = this.ops.filter((o) => !(o.type === "undo" && o.taskId === op.taskId));
      this.save();
      const message = (result.data as { error?: { message?: string } } | null)?.error?.message ?? `The server answered ${result.status}.`;
      listener.rejected(op, result.status, message);
    }
    listener.changed();
    void this.pump();
  }

  private load(): OutboxOp[] {
    try {
      const text = this.options.store?.getItem(this.options.storageKey);
      const ops = text ? (JSON.parse(text) as OutboxOp[]) : [];
      return Array.isArray(ops) ? ops : [];
    } catch {
      return [];
    }
  }

  private save() {
    const { store, storageKey } = this.options;
    if (!store) return;
    try {
      if (this.ops.length) store.setItem(storageKey, JSON.stringify(this.ops));
      else store.removeItem(storageKey);
    } catch {
      // Storage full or disabled: the answers still go out from memory.
    }
  }
}
