"use client";

import { useEffect, useState } from "react";
import type { ProjectSnapshot } from "@/lib/server/live/events";

/**
 * The one live view of a project the pages share: the snapshot (label counts, batch, round
 * progress, latest estimates where allowed) from the server-sent events stream, and whether the
 * stream is connected. EventSource reconnects by itself after a network error; when the server
 * closed it for good, one plain request tells a lapsed session (401) from a passing failure.
 */
export type TimedSnapshot = ProjectSnapshot & { at: number };

export function useProjectEvents(projectId: string, onUnauthenticated?: () => void): { snapshot: TimedSnapshot | null; connected: boolean } {
  const [snapshot, setSnapshotState] = useState<TimedSnapshot | null>(null);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const setSnapshot = (value: ProjectSnapshot) => setSnapshotState({ ...value, at: Date.now() });
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const open = () => {
      source = new EventSource(`/api/projects/${projectId}/events`);
      source.addEventListener("open", () => setConnected(true));
      source.addEventListener("snapshot", (event) => setSnapshot(JSON.parse((event as MessageEvent<string>).data) as ProjectSnapshot));
      source.onerror = () => {
        setConnected(false);
        if (source?.readyState !== EventSource.CLOSED || closed) return;
        void fetch(`/api/projects/${projectId}/progress`, { cache: "no-store" })
          .then(async (response) => {
            if (response.status === 401) return onUnauthenticated?.();
            if (response.ok) setSnapshot((await response.json()) as ProjectSnapshot);
          })
          .catch(() => undefined)
          .finally(() => {
            if (!closed) retry = setTimeout(open, 5_000);
          });
      };
    };
    open();
    return () => {
      closed = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [projectId, onUnauthenticated]);
  return { snapshot, connected };
}
