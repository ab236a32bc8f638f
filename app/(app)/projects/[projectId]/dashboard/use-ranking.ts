"use client";

import { useEffect, useState } from "react";
import { apiJson } from "@/app/components/api";
import type { MetricKey } from "@/lib/metrics";
import type { ClusteringRanking } from "@/lib/server/evaluation/ranking";

/**
 * The clustering ranking as the server computes it (GET /ranking): estimates, intervals, change
 * since the round before, P(best), the label-free order and rho. `rounds` and `version` say when
 * to ask again (a round finished; the label-free scores or the clusterings changed); an answer
 * for an older question never replaces a newer one.
 */
export function useRanking(projectId: string, metric: MetricKey, measure: string, rounds: unknown, version: string): ClusteringRanking | null {
  const [ranking, setRanking] = useState<ClusteringRanking | null>(null);
  useEffect(() => {
    if (rounds === null) return;
    let current = true;
    apiJson<ClusteringRanking>(`/api/projects/${projectId}/ranking?metric=${metric}&measure=${measure}`).then(
      (next) => current && setRanking(next),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [projectId, metric, measure, rounds, version]);
  return ranking;
}
