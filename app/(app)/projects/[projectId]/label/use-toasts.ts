"use client";

import { useCallback, useRef, useState } from "react";

export interface Toast {
  id: number;
  text: string;
  tone: "info" | "error";
}

const VISIBLE_MS = 5_000;

/** Short notices that explain what happened (a refused label, an undo) and fade on their own. */
export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(0);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const notify = useCallback(
    (text: string, tone: Toast["tone"] = "info") => {
      const id = ++next.current;
      // At most three at once: a burst of refusals should not bury the item.
      setToasts((all) => [...all.filter((t) => t.text !== text), { id, text, tone }].slice(-3));
      setTimeout(() => dismiss(id), VISIBLE_MS);
    },
    [dismiss],
  );
  return { toasts, notify, dismiss };
}
