import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import os from "node:os";
import { db } from "../db";
import { newWorkerId } from "../jobs/queue";
import { releaseDeadWorker } from "../jobs/worker-loop";
import { logger } from "./logger";

/**
 * Keeps the worker process running beside the web server (`npm start`). When the worker dies the
 * web app keeps serving: the supervisor logs why (exit code or signal, as a structured line and a
 * plain one), hands the dead worker's running jobs back to the queue at once (it assigned the
 * worker its id through CEREAL_WORKER_ID, so it knows whose jobs they are) and starts a new worker
 * after a backoff that doubles from `initialMs` to `maxMs` and starts over once a worker has run
 * `healthyMs`.
 */
export interface SupervisorOptions {
  /** the worker's command line, e.g. node --import tsx bin/worker.ts */
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly stdio?: StdioOptions;
  /** a plain line for the console (`[start] ...`) */
  readonly say?: (line: string) => void;
  readonly backoff?: Partial<Backoff>;
  /** how much nicer than this process the worker runs (default `workerNice()`), so that requests preempt training */
  readonly nice?: number;
}

export interface Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  /** a worker that ran this long was healthy: the next restart waits initialMs again */
  readonly healthyMs: number;
}
export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, healthyMs: 60_000 };

export interface WorkerSupervisor {
  /** the running worker process, null between a death and its restart */
  readonly child: () => ChildProcess | null;
  /** the running worker's queue id */
  readonly workerId: () => string | null;
  readonly restarts: () => number;
  /**
   * SIGTERM to the worker (SIGKILL after forceMs), no restart; resolves once it exited and the jobs
   * it was still running (killed, it could not hand them back itself) are queued again
   */
  stop(forceMs?: number): Promise<void>;
}

/**
 * How much nicer (lower CPU priority) than the web process the worker runs: CEREAL_WORKER_NICE,
 * a whole number from 0 to 19, 10 by default. The web process and the worker share the machine's
 * cores; a niced worker leaves them to the requests when both want them, so an annotator's answer
 * does not wait behind a training step, and rounds still get every cycle the requests leave idle.
 * 0 runs the worker at the web process's priority.
 */
export function workerNice(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.CEREAL_WORKER_NICE?.trim();
  if (!raw) return 10;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 19) throw new Error(`CEREAL_WORKER_NICE must be a whole number from 0 to 19 (got ${raw}).`);
  return value;
}

/** The wait before the next restart: doubling while workers die young, back to the start after a healthy run. */
export function nextDelay(previousMs: number | null, ranMs: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  if (previousMs === null || ranMs >= backoff.healthyMs) return backoff.initialMs;
  return Math.min(previousMs * 2, backoff.maxMs);
}

/** How a process ended, in words: "exit code 1" or "signal SIGKILL". */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

export function superviseWorker(options: SupervisorOptions): WorkerSupervisor {
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const say = options.say ?? (() => {});
  const nice = options.nice ?? workerNice(options.env ?? process.env);
  let child: ChildProcess | null = null;
  let workerId: string | null = null;
  let delay: number | null = null;
  let restarts = 0;
  let stopping = false;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;

  const start = () => {
    const id = newWorkerId();
    const started = Date.now();
    const proc = spawn(options.command, [...options.args], { env: { ...(options.env ?? process.env), CEREAL_WORKER_ID: id }, stdio: options.stdio ?? "inherit" });
    child = proc;
    workerId = id;
    // at once, before the new process starts its threads: on Linux they inherit the main thread's nice value
    if (proc.pid !== undefined && nice > 0) {
      try {
        os.setPriority(proc.pid, Math.min(19, os.getPriority() + nice));
      } catch (error) {
        say(`could not lower the worker's priority (${(error as Error).message}); it runs at the web process's`);
      }
    }
    let ended = false;
    const died = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      if (ended) return;
      ended = true;
      child = null;
      workerId = null;
      if (stopping) return;
      void handleDeath({ id, pid: proc.pid ?? null, ranMs: Date.now() - started, code, signal, error });
    };
    proc.once("exit", (code, signal) => died(code, signal));
    proc.once("error", (error) => died(null, null, error));
  };

  const handleDeath = async (death: { id: string; pid: number | null; ranMs: number; code: number | null; signal: NodeJS.Signals | null; error?: Error }) => {
    delay = nextDelay(delay, death.ranMs, backoff);
    const how = death.error ? `could not start (${death.error.message})` : `died (${describeExit(death.code, death.signal)})`;
    let released: { requeued: string[]; failed: string[] } = { requeued: [], failed: [] };
    let releaseError: string | null = null;
    try {
      released = await releaseDeadWorker(death.id);
      // /api/ready must not count the dead worker as alive for the minute its heartbeat stays fresh
      await db().workerHeartbeat.updateMany({ where: { id: death.id, stoppedAt: null }, data: { stoppedAt: new Date() } });
    } catch (error) {
      releaseError = (error as Error).message;
    }
    logger().error(
      {
        process: "supervisor",
        workerId: death.id,
        workerPid: death.pid,
        exitCode: death.code,
        signal: death.signal,
        ranMs: death.ranMs,
        restartInMs: delay,
        jobsRequeued: released.requeued,
        jobsFailed: released.failed,
        ...(releaseError ? { releaseError } : {}),
      },
      "worker died; restarting it",
    );
    const jobs = released.requeued.length + released.failed.length
      ? `; its running job(s) handed back: ${released.requeued.length} queued again, ${released.failed.length} failed after dying too often`
      : "";
    say(`the worker (pid ${death.pid}) ${how} after ${(death.ranMs / 1000).toFixed(1)} s${jobs}${releaseError ? `; handing its jobs back failed: ${releaseError}` : ""}; restarting it in ${(delay / 1000).toFixed(1)} s`);
    if (stopping) return;
    restartTimer = setTimeout(() => {
      if (stopping) return;
      restarts++;
      start();
    }, delay);
  };

  start();
  return {
    child: () => child,
    workerId: () => workerId,
    restarts: () => restarts,
    async stop(forceMs = 10_000) {
      stopping = true;
      clearTimeout(restartTimer);
      const proc = child;
      const id = workerId;
      if (!proc || !id || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
      proc.kill("SIGTERM");
      const force = setTimeout(() => proc.kill("SIGKILL"), forceMs);
      await exited;
      clearTimeout(force);
      await releaseDeadWorker(id);
    },
  };
}
