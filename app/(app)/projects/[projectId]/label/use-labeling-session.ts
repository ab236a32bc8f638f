"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { QueueState, TaskView } from "@/lib/server/labeling/tasks";
import { apiRequest, errorMessage } from "@/app/components/api";
import { AnswerTimer } from "./answer-timer";
import { LabelOutbox, newIdempotencyKey, type AnswerBody, type OutboxOp } from "./label-outbox";

/**
 * The annotator's side of the labeling loop: a local queue of leased tasks (the first is on
 * screen, the rest are prefetched with their images), answers sent through the outbox, and
 * undo. The screen never waits for the server: an answer moves on at once, the queue refills in
 * the background, and refusals come back as notices.
 */
const TARGET = 5; // tasks held locally: enough to hide a slow response, few enough not to hoard leases
const LOW_WATER = 3;
const HISTORY = 100;

export type SessionState = QueueState | "loading" | "offline";

export interface Progress {
  labels: number;
  budget: number;
  /** when the server's answer arrived, to compare with the event stream's snapshot */
  at: number;
}

export interface LabelingSession {
  current: TaskView | null;
  queueLength: number;
  state: SessionState;
  message: string | null;
  unsaved: number;
  retrying: boolean;
  progress: Progress | null;
  canUndo: boolean;
  answer(body: Omit<AnswerBody, "durationMs">): void;
  undo(): void;
  refill(): void;
}

export function useLabelingSession(options: {
  projectId: string;
  userId: string;
  onUnauthenticated: () => void;
  notify: (text: string, tone?: "info" | "error") => void;
}): LabelingSession {
  const { projectId, userId } = options;
  const notify = useRef(options.notify);
  const onUnauthenticated = useRef(options.onUnauthenticated);
  useEffect(() => {
    notify.current = options.notify;
    onUnauthenticated.current = options.onUnauthenticated;
  });

  const [queue, setQueueState] = useState<TaskView[]>([]);
  const queueRef = useRef<TaskView[]>([]);
  const [state, setState] = useState<SessionState>("loading");
  const [message, setMessage] = useState<string | null>(null);
  const [unsaved, setUnsaved] = useState(0);
  const [retrying, setRetrying] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [historySize, setHistorySize] = useState(0);
  const history = useRef<{ task: TaskView; key: string }[]>([]);
  // Tasks answered here: a refill that raced an answer must not bring them back.
  const answered = useRef(new Set<string>());
  const outbox = useRef<LabelOutbox | null>(null);
  const fetching = useRef(false);
  const preloaded = useRef(new Map<string, HTMLImageElement>());
  const leaving = useRef(false);
  // Set while the page is gone: tasks a lease request still in flight brings back go straight back.
  const gone = useRef(false);
  const lastAnswerAt = useRef(0);
  // times the task on screen: a new timer whenever another task comes first (an undone one included)
  const timer = useRef<AnswerTimer | null>(null);
  const currentId = queue[0]?.id ?? null;
  useEffect(() => {
    timer.current = currentId === null ? null : new AnswerTimer(performance.now(), document.visibilityState === "visible");
  }, [currentId]);
  useEffect(() => {
    const input = () => timer.current?.input(performance.now());
    const visibility = () => timer.current?.visibility(performance.now(), document.visibilityState === "visible");
    const events = ["keydown", "pointerdown", "pointermove", "wheel", "scroll"] as const;
    for (const e of events) window.addEventListener(e, input, { passive: true, capture: true });
    document.addEventListener("visibilitychange", visibility);
    return () => {
      for (const e of events) window.removeEventListener(e, input, { capture: true });
      document.removeEventListener("visibilitychange", visibility);
    };
  }, []);

  const setQueue = useCallback((next: (q: TaskView[]) => TaskView[]) => {
    queueRef.current = next(queueRef.current);
    setQueueState(queueRef.current);
  }, []);

  const toSignIn = useCallback(() => {
    if (leaving.current) return;
    leaving.current = true;
    onUnauthenticated.current();
  }, []);

  const preload = useCallback((tasks: TaskView[]) => {
    const cache = preloaded.current;
    for (const url of tasks.flatMap((t) => [t.item.imageUrl, t.itemB?.imageUrl])) {
      if (!url || cache.has(url)) continue;
      const image = new Image();
      image.decoding = "async";
      image.src = url;
      cache.set(url, image);
    }
    // Keep the cache small; the browser's HTTP cache holds the bytes anyway.
    while (cache.size > 40) cache.delete(cache.keys().next().value!);
  }, []);

  const giveBack = useCallback(
    (taskIds: string[]) => {
      if (!taskIds.length || leaving.current) return;
      const body = new Blob([JSON.stringify({ taskIds })], { type: "application/json" });
      navigator.sendBeacon(`/api/projects/${projectId}/tasks/release`, body);
    },
    [projectId],
  );

  const refill = useCallback(async (force = false) => {
    const box = outbox.current;
    if (!box || fetching.current || leaving.current) return;
    if (!force && queueRef.current.length >= LOW_WATER) return;
    fetching.current = true;
    try {
      const pending = box.pendingTaskIds();
      // The server lists our still-leased tasks first (those on screen and those being saved), then new ones.
      const count = Math.min(10, TARGET + pending.size);
      const result = await apiRequest(`/api/projects/${projectId}/tasks/next?count=${count}`, { method: "POST" });
      if (result.status === 401) return toSignIn();
      if (result.status !== 200) {
        if (queueRef.current.length === 0) {
          setState(result.status === 0 ? "offline" : "waiting");
          setMessage(errorMessage(result));
        }
        return;
      }
      const data = result.data as { tasks: TaskView[]; state: QueueState; message?: string };
      if (gone.current) return giveBack(data.tasks.map((t) => t.id));
      const known = new Set([...queueRef.current.map((t) => t.id), ...box.pendingTaskIds(), ...answered.current]);
      const fresh = data.tasks.filter((t) => !known.has(t.id));
      const renewed = new Map(data.tasks.map((t) => [t.id, t.leaseExpiresAt]));
      // The server lists every task still ours; an expired one it left out went to someone else.
      const now = Date.now();
      const lost = new Set(queueRef.current.filter((t) => !renewed.has(t.id) && Date.parse(t.leaseExpiresAt) <= now).map((t) => t.id));
      if (lost.size) {
        lost.forEach((id) => answered.current.add(id));
        notify.current(`${lost.size === 1 ? "One item was" : `${lost.size} items were`} held for you longer than 10 minutes and went to someone else; moved on.`);
      }
      setQueue((q) => [...q.filter((t) => !lost.has(t.id)).map((t) => (renewed.has(t.id) ? { ...t, leaseExpiresAt: renewed.get(t.id)! } : t)), ...fresh]);
      preload(fresh);
      setState(queueRef.current.length ? "ok" : data.state === "ok" ? "waiting" : data.state);
      setMessage(queueRef.current.length ? null : (data.message ?? "Every task you could take is answered or being saved."));
    } finally {
      fetching.current = false;
    }
  }, [projectId, preload, setQueue, toSignIn, giveBack]);

  useEffect(() => {
    const storageKey = `cereal.outbox.${userId}.${projectId}`;
    const box = new LabelOutbox({
      storageKey,
      store: typeof window === "undefined" ? null : window.localStorage,
      send: (op: OutboxOp) =>
        op.type === "answer"
          ? apiRequest(`/api/projects/${projectId}/labels`, { method: "POST", body: { taskId: op.taskId, idempotencyKey: op.key, ...op.body } })
          : apiRequest(`/api/projects/${projectId}/labels/undo`, { method: "POST", body: { taskId: op.taskId } }),
      listener: {
        sent: (_op, data) => {
          const next = (data as { progress?: Omit<Progress, "at"> } | null)?.progress;
          if (next) setProgress({ ...next, at: Date.now() });
        },
        rejected: (op, status, text) => {
          if (op.type === "answer") {
            history.current = history.current.filter((h) => h.key !== op.key);
            setHistorySize(history.current.length);
            notify.current(status === 409 ? `Not saved, moved on: ${text}` : `Not saved: ${text}`, "error");
          } else {
            // The undo was refused (a round already used the label): the re-shown item goes away again.
            answered.current.add(op.taskId);
            setQueue((q) => q.filter((t) => t.id !== op.taskId));
            notify.current(`Undo refused: ${text}`, "error");
          }
          void refill();
        },
        unauthenticated: toSignIn,
        changed: () => {
          setUnsaved(box.size);
          setRetrying(box.retrying);
        },
      },
    });
    outbox.current = box;
    setUnsaved(box.size);
    box.flush();
    void refill(true);
    const online = () => box.flush();
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      box.dispose();
      outbox.current = null;
    };
  }, [projectId, userId, refill, setQueue, toSignIn]);

  // Leaving the page gives the prefetched, unanswered tasks back, so nobody waits 10 minutes for them.
  useEffect(() => {
    gone.current = false;
    const release = () => giveBack(queueRef.current.map((t) => t.id));
    window.addEventListener("pagehide", release);
    return () => {
      window.removeEventListener("pagehide", release);
      gone.current = true;
      release();
    };
  }, [giveBack]);

  // Leases last 10 minutes. While the annotator is at work (answered in the last 5 minutes), or
  // when they come back to the tab, leases about to run out are renewed; an idle tab lets them go.
  useEffect(() => {
    const renewSoon = (force: boolean) => {
      const soon = Date.now() + 2 * 60_000;
      const expiring = queueRef.current.some((t) => Date.parse(t.leaseExpiresAt) < soon);
      if (expiring && (force || Date.now() - lastAnswerAt.current < 5 * 60_000)) void refill(true);
    };
    const timer = setInterval(() => renewSoon(false), 30_000);
    const back = () => document.visibilityState === "visible" && renewSoon(true);
    document.addEventListener("visibilitychange", back);
    window.addEventListener("focus", back);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", back);
      window.removeEventListener("focus", back);
    };
  }, [refill]);

  // With nothing to show, ask again now and then: the next batch or a resumed project appears by itself.
  useEffect(() => {
    if (queue.length > 0 || state === "budget_reached") return;
    const timer = setInterval(() => void refill(true), 4_000);
    return () => clearInterval(timer);
  }, [queue.length, state, refill]);

  const answer = useCallback(
    (given: Omit<AnswerBody, "durationMs">) => {
      const task = queueRef.current[0];
      const box = outbox.current;
      if (!task || !box) return;
      const body: AnswerBody = timer.current ? { ...given, durationMs: timer.current.elapsed(performance.now()) } : given;
      const key = newIdempotencyKey();
      lastAnswerAt.current = Date.now();
      answered.current.add(task.id);
      history.current = [...history.current, { task, key }].slice(-HISTORY);
      setHistorySize(history.current.length);
      setQueue((q) => q.slice(1));
      box.enqueue({ type: "answer", key, taskId: task.id, body });
      if (queueRef.current.length === 0) setState("loading");
      void refill();
    },
    [refill, setQueue],
  );

  const undo = useCallback(() => {
    const box = outbox.current;
    const last = history.current.at(-1);
    if (!box) return;
    if (!last) {
      notify.current("Nothing to undo: you have not answered anything on this page yet.");
      return;
    }
    history.current = history.current.slice(0, -1);
    setHistorySize(history.current.length);
    answered.current.delete(last.task.id);
    // Not sent yet: simply take it back. Otherwise the server withdraws it and leases the task back.
    if (!box.cancel(last.key)) box.enqueue({ type: "undo", key: newIdempotencyKey(), taskId: last.task.id });
    setQueue((q) => [last.task, ...q.filter((t) => t.id !== last.task.id)]);
    setState("ok");
    setMessage(null);
  }, [setQueue]);

  return {
    current: queue[0] ?? null,
    queueLength: queue.length,
    state: queue.length ? "ok" : state,
    message,
    unsaved,
    retrying,
    progress,
    canUndo: historySize > 0,
    answer,
    undo,
    refill: () => void refill(true),
  };
}
