"use client";

import { useEffect, useState } from "react";
import type { ItemView } from "@/lib/server/labeling/item-view";
import { countsByCluster, type ClusterCountRows } from "./verify-order";

const PER_CLASS = 3;
const REFRESH_EVERY_LABELS = 5;

export interface ClassExamples {
  /** a few items labeled with each class */
  examples: Map<number, ItemView[]>;
  /** class -> labels per cluster of the project's first clustering; empty unless the project labels by "verify" */
  byCluster: Map<number, Map<number, number>>;
}

/** A few items labeled with each class (and, one class at a time, the labels per cluster), refreshed as labels come in (every few labels, not every one). */
export function useClassExamples(projectId: string, labels: number | null): ClassExamples {
  const [state, setState] = useState<ClassExamples>({ examples: new Map(), byCluster: new Map() });
  const bucket = labels === null ? -1 : Math.floor(labels / REFRESH_EVERY_LABELS);
  useEffect(() => {
    let cancelled = false;
    void fetch(`/api/projects/${projectId}/examples?perClass=${PER_CLASS}`, { cache: "no-store" })
      .then((response) => (response.ok ? response.json() : null))
      .then((data: { examples: { classIndex: number; items: ItemView[] }[]; clusterCounts?: ClusterCountRows } | null) => {
        if (!cancelled && data) setState({ examples: new Map(data.examples.map((e) => [e.classIndex, e.items])), byCluster: countsByCluster(data.clusterCounts ?? []) });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [projectId, bucket]);
  return state;
}
