"use client";

import { useEffect, useState } from "react";

/** The value once it has held still for `ms`: a burst of key presses announces only where it lands. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The workspace's polite live regions, visually hidden (the screen shows the same): the item on
 * screen, whether answers are saved, and the round's phase. A null `save` keeps the last news.
 */
export function WorkspaceAnnouncer({ item, save, round }: { item: string; save: string | null; round: string }) {
  const settledItem = useSettled(item, 400);
  const [saved, setSaved] = useState(save ?? "");
  if (save !== null && save !== saved) setSaved(save);
  return (
    <div className="sr-only">
      <p role="status" data-testid="announce-item">
        {settledItem}
      </p>
      <p role="status" data-testid="announce-save">
        {saved}
      </p>
      <p role="status" data-testid="announce-round">
        {round}
      </p>
    </div>
  );
}
