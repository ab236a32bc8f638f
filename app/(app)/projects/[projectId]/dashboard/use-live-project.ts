"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { apiRequest } from "@/app/components/api";
import { useProjectEvents } from "@/app/components/use-project-events";
import type { RoundRow, StopRule } from "./dashboard-types";

/**
 * The project as it changes: the snapshot stream (/events, pushed by the server when anything
 * moves) and the round history, refetched only when the stream says a round finished, failed or
 * was queued, so a page left open costs one stream and no polling.
 */
export function useLiveProject(projectId: string) {
  const { snapshot, connected } = useProjectEvents(projectId);
  const [rounds, setRounds] = useState<RoundRow[] | null>(null);
  const [stopRule, setStopRule] = useState<StopRule>({});
  const [stepsPerSecond, setStepsPerSecond] = useState<number | null>(null);
  const lastStep = useRef<{ round: number; step: number; at: number } | null>(null);

  const refreshRounds = useCallback(async () => {
    const [r, s] = await Promise.all([apiRequest(`/api/projects/${projectId}/rounds`), apiRequest(`/api/projects/${projectId}/stop-rule`)]);
    if (r.status === 200) setRounds((r.data as { rounds: RoundRow[] }).rounds);
    if (s.status === 200) setStopRule((s.data as { status: StopRule }).status);
  }, [projectId]);

  // training speed from the steps two snapshots of the same round report
  useEffect(() => {
    const progress = snapshot?.round?.status === "running" ? snapshot.round.progress : null;
    if (progress?.step === undefined || !snapshot?.round) {
      lastStep.current = null;
      // eslint-disable-next-line react-hooks/set-state-in-effect -- derived from the stream's latest snapshot
      setStepsPerSecond(null);
      return;
    }
    const prev = lastStep.current;
    if (prev && prev.round === snapshot.round.index && progress.step > prev.step) setStepsPerSecond(((progress.step - prev.step) * 1000) / (snapshot.at - prev.at));
    lastStep.current = { round: snapshot.round.index, step: progress.step, at: snapshot.at };
  }, [snapshot]);

  // Which round events change the history: a finished round (lastRound), the state of the current one, or its interim estimates.
  const roundKey = snapshot ? `${snapshot.lastRound?.index ?? -1}:${snapshot.round?.index ?? -1}:${snapshot.round?.status ?? "none"}:${snapshot.estimatesRound?.interim ?? false}` : null;
  useEffect(() => {
    if (roundKey === null) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching on a stream event is this effect's purpose
    void refreshRounds();
  }, [roundKey, refreshRounds]);

  return { snapshot, rounds, stopRule, connected, stepsPerSecond, refreshRounds };
}
