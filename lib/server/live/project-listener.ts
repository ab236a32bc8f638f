import pg, { type PoolConfig } from "pg";
import { PROJECT_CHANNEL } from "../db";

/**
 * Live events on PostgreSQL: one dedicated connection per web process LISTENs on PROJECT_CHANNEL,
 * where every change a project's snapshot shows is announced (`notifyProjectChanged` in db.ts,
 * sent on commit, by the web processes and the workers alike), and passes each project id to
 * `changed`. A lost connection is opened again, with a wait doubling from `retryMs` to
 * `maxRetryMs`; `connected` is called on each (re)connection, since notifications sent while
 * it was down are gone.
 */
export interface ProjectListenerOptions {
  readonly pool: PoolConfig;
  readonly changed: (projectId: string) => void;
  readonly connected?: () => void;
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
}

export interface ProjectListener {
  /** the backend pid of the listening connection, null while it is down */
  backendPid(): number | null;
  close(): Promise<void>;
}

/** The listening connection's application_name (what pg_stat_activity shows). */
export const LISTENER_APPLICATION = "cereal-live-events";

export function listenForProjectChanges(options: ProjectListenerOptions): ProjectListener {
  const { retryMs = 250, maxRetryMs = 10_000 } = options;
  let current: pg.Client | null = null;
  let pid: number | null = null;
  let closed = false;
  let wait = retryMs;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const open = async () => {
    if (closed) return;
    const client = new pg.Client({ ...options.pool, application_name: LISTENER_APPLICATION, keepAlive: true });
    let lost = false;
    const lose = () => {
      if (lost) return;
      lost = true;
      if (current === client) {
        current = null;
        pid = null;
      }
      void client.end().catch(() => undefined);
      if (closed) return;
      retry = setTimeout(() => void open(), wait);
      wait = Math.min(wait * 2, maxRetryMs);
    };
    client.on("error", lose);
    client.on("end", lose);
    client.on("notification", (message) => {
      if (message.channel === PROJECT_CHANNEL && message.payload) options.changed(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PROJECT_CHANNEL}`);
      const row = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      if (lost) return;
      if (closed) {
        await client.end().catch(() => undefined);
        return;
      }
      current = client;
      pid = row.rows[0].pid;
      wait = retryMs;
      options.connected?.();
    } catch {
      lose();
    }
  };

  void open();
  return {
    backendPid: () => pid,
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = current;
      current = null;
      pid = null;
      await client?.end().catch(() => undefined);
    },
  };
}
