import type { ProjectRole } from "@/lib/generated/prisma/enums";
import { db } from "../db";

/**
 * One poller per server process and project, fanned out to every open stream of that project.
 * Each tick reads the roles of the project's watchers in one query (a watcher removed from the
 * project gets an error and is dropped, as a stream polling on its own would), then computes the
 * snapshot once per role among them (owners may see what annotators may not) and hands every
 * watcher the text of its variant. The poller stops when the last watcher of the project leaves.
 * Ticks come every `pollMs`, and sooner when `wake` says the project changed (PostgreSQL's
 * notifications, project-listener.ts): a wake during a tick gives one more tick after it, and
 * ticks start at least `minGapMs` apart, however many changes come in.
 */
export type FeedEvent = { readonly snapshot: string } | { readonly error: string };

export interface FeedSources {
  /** the snapshot a member with this role sees, as JSON text */
  readonly snapshot: (projectId: string, role: ProjectRole) => Promise<string>;
  /** the project roles of these users (a user missing from the map is not a member) */
  readonly roles: (projectId: string, userIds: readonly string[]) => Promise<Map<string, ProjectRole>>;
}

export interface FeedTiming {
  /** the poll: the longest wait between two ticks */
  readonly pollMs: number;
  /** the shortest wait between the starts of two ticks that wakes asked for */
  readonly minGapMs: number;
}

export interface ProjectFeeds {
  /** starts delivering events to `deliver` after the next tick; call the returned function to stop */
  watch(projectId: string, userId: string, deliver: (event: FeedEvent) => void): () => void;
  /** what the project's snapshot shows changed: a tick soon, not at the next poll (no-op when nobody watches it) */
  wake(projectId: string): void;
  /** wakes every watched project (after notifications may have been lost) */
  wakeAll(): void;
  /** projects with a running poller (what the tests and metrics look at) */
  polled(): string[];
}

interface Watcher {
  readonly userId: string;
  readonly deliver: (event: FeedEvent) => void;
}

interface Feed {
  readonly watchers: Set<Watcher>;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** when the timer fires */
  dueAt: number;
  ticking: boolean;
  /** woken while ticking: tick again once this tick is done */
  woken: boolean;
  lastTickAt: number;
}

export function createProjectFeeds(sources: FeedSources, timing: Partial<FeedTiming> = {}): ProjectFeeds {
  const { pollMs = 1000, minGapMs = 0 } = timing;
  const feeds = new Map<string, Feed>();

  /** the next tick at `dueAt`, unless one is due sooner */
  const tickAt = (projectId: string, feed: Feed, dueAt: number) => {
    if (feed.timer !== undefined && feed.dueAt <= dueAt) return;
    clearTimeout(feed.timer);
    feed.dueAt = dueAt;
    feed.timer = setTimeout(() => {
      feed.timer = undefined;
      void tick(projectId, feed);
    }, Math.max(0, dueAt - Date.now()));
  };

  const tick = async (projectId: string, feed: Feed) => {
    if (feeds.get(projectId) !== feed) return;
    if (feed.ticking) {
      feed.woken = true;
      return;
    }
    feed.ticking = true;
    feed.lastTickAt = Date.now();
    try {
      const watchers = [...feed.watchers];
      const roles = await sources.roles(projectId, [...new Set(watchers.map((w) => w.userId))]);
      const variants = new Map<ProjectRole, Promise<string>>();
      for (const role of new Set(roles.values())) variants.set(role, sources.snapshot(projectId, role));
      const texts = new Map<ProjectRole, string>();
      for (const [role, text] of variants) texts.set(role, await text);
      for (const watcher of watchers) {
        if (!feed.watchers.has(watcher)) continue; // left while the tick ran
        const role = roles.get(watcher.userId);
        watcher.deliver(role ? { snapshot: texts.get(role)! } : { error: "You are not a member of this project." });
      }
    } catch (error) {
      for (const watcher of feed.watchers) watcher.deliver({ error: (error as Error).message });
    }
    feed.ticking = false;
    if (feeds.get(projectId) !== feed || feed.watchers.size === 0) return;
    const woken = feed.woken;
    feed.woken = false;
    tickAt(projectId, feed, woken ? feed.lastTickAt + minGapMs : Date.now() + pollMs);
  };

  const wake = (projectId: string) => {
    const feed = feeds.get(projectId);
    if (!feed) return;
    if (feed.ticking) feed.woken = true;
    else tickAt(projectId, feed, feed.lastTickAt + minGapMs);
  };

  return {
    watch(projectId, userId, deliver) {
      let feed = feeds.get(projectId);
      const fresh = !feed;
      if (!feed) feeds.set(projectId, (feed = { watchers: new Set(), timer: undefined, dueAt: 0, ticking: false, woken: false, lastTickAt: 0 }));
      const watcher: Watcher = { userId, deliver };
      feed.watchers.add(watcher);
      if (fresh) void tick(projectId, feed);
      const own = feed;
      return () => {
        own.watchers.delete(watcher);
        if (own.watchers.size === 0 && feeds.get(projectId) === own) {
          clearTimeout(own.timer);
          feeds.delete(projectId);
        }
      };
    },
    wake,
    wakeAll: () => [...feeds.keys()].forEach(wake),
    polled: () => [...feeds.keys()],
  };
}

/** The project roles of these users, in one query. */
export async function memberRoles(projectId: string, userIds: readonly string[]): Promise<Map<string, ProjectRole>> {
  const members = await db().projectMember.findMany({ where: { projectId, userId: { in: [...userIds] } }, select: { userId: true, role: true } });
  return new Map(members.map((m) => [m.userId, m.role]));
}
