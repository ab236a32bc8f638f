"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { RoundRow, Snapshot, StopRule } from "./dashboard-types";

/**
 * The project as it changes: the snapshot stream (/events, pushed by the server when anything
 * moves) and the round history, refetched only when the stream says a round finished, failed or
 * was queued, so a page left open costs one stream and no polling.
 */
export function useLiveProject(projectId: string) {
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [rounds, setRounds] = useState<RoundRow[] | null>(null);
  const [stopRule, setStopRule] = useState<StopRule>({});
  const [connected, setConnected] = useState(false);
  const [stepsPerSecond, setStepsPerSecond] = useState<number | null>(null);
  const lastStep = useRef<{ round: number; step: number; at: number } | null>(null);

  const refreshRounds = useCallback(async () => {
    const [r, s] = await Promise.all([
      fetch(`/api/projects/${projectId}/rounds`).then((x) => (x.ok ? x.json() : null)),
      fetch(`/api/projects/${projectId}/stop-rule`).then((x) => (x.ok ? x.json() : null)),
    ]);
    if (r) setRounds(r.rounds);
    if (s) setStopRule(s.status);
  }, [projectId]);

  useEffect(() => {
    const source = new EventSource(`/api/projects/${projectId}/events`);
    source.addEventListener("open", () => setConnected(true));
    source.addEventListener("error", () => setConnected(false));
    source.addEventListener("snapshot", (event) => {
      const next = JSON.parse((event as MessageEvent).data) as Snapshot;
      setSnapshot(next);
      const progress = next.round?.status === "running" ? next.round.progress : null;
      if (progress?.step !== undefined && next.round) {
        const now = performance.now();
        const prev = lastStep.current;
        if (prev && prev.round === next.round.index && progress.step > prev.step) setStepsPerSecond(((progress.step - prev.step) * 1000) / (now - prev.at));
        lastStep.current = { round: next.round.index, step: progress.step, at: now };
      } else {
        lastStep.current = null;
        setStepsPerSecond(null);
      }
    });
    return () => source.close();
  }, [projectId]);

  // Which round events change the history: a finished round (lastRound) or the state of the current one.
  const roundKey = snapshot ? `${snapshot.lastRound?.index ?? -1}:${snapshot.round?.index ?? -1}:${snapshot.round?.status ?? "none"}` : null;
  useEffect(() => {
    if (roundKey === null) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching on a stream event is this effect's purpose
    void refreshRounds();
  }, [roundKey, refreshRounds]);

  return { snapshot, rounds, stopRule, connected, stepsPerSecond, refreshRounds };
}
