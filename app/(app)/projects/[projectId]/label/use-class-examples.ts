"use client";

import { useEffect, useState } from "react";
import type { ItemView } from "@/lib/server/labeling/item-view";

const PER_CLASS = 3;
const REFRESH_EVERY_LABELS = 5;

/** A few items labeled with each class, refreshed as labels come in (every few labels, not every one). */
export function useClassExamples(projectId: string, labels: number | null): Map<number, ItemView[]> {
  const [examples, setExamples] = useState(new Map<number, ItemView[]>());
  const bucket = labels === null ? -1 : Math.floor(labels / REFRESH_EVERY_LABELS);
  useEffect(() => {
    let cancelled = false;
    void fetch(`/api/projects/${projectId}/examples?perClass=${PER_CLASS}`, { cache: "no-store" })
      .then((response) => (response.ok ? response.json() : null))
      .then((data: { examples: { classIndex: number; items: ItemView[] }[] } | null) => {
        if (!cancelled && data) setExamples(new Map(data.examples.map((e) => [e.classIndex, e.items])));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [projectId, bucket]);
  return examples;
}
