"use client";

import { useEffect, useLayoutEffect, useRef } from "react";

/**
 * One keydown listener for the workspace's shortcuts. Held-down keys (auto-repeat) and chords
 * with Ctrl, Cmd or Alt are left alone, and so is typing in a field or an open dialog: the
 * shortcuts are off while the filter box or a reason has focus. Whether a dialog is open is read
 * from the page itself, not from React state, so a key pressed right after a dialog closes counts.
 */
export function useWorkspaceKeys(onKey: (key: string, event: KeyboardEvent) => boolean) {
  const handler = useRef(onKey);
  useLayoutEffect(() => {
    handler.current = onKey;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (document.querySelector("dialog[open]")) return;
      const target = event.target as HTMLElement | null;
      // Right after a dialog closes, its field can keep focus for a moment: that is no longer typing.
      const typing = target?.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']") && !target.closest("dialog:not([open])");
      if (typing) return;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if (handler.current(key, event)) event.preventDefault();
    };
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);
}
