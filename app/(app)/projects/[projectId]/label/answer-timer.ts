/**
 * How long an answer took, as the label page measures it (issue #25): from the task shown to the
 * answer, counting only time while the tab is visible, and cutting idle time: a stretch without any
 * input (key, pointer, scroll) counts at most IDLE_CAP_MS. Pure: the caller passes the clock, so a
 * test drives it with made-up times and the page with performance.now().
 */
export const IDLE_CAP_MS = 60_000;

export class AnswerTimer {
  private counted = 0;
  /** when the stretch now counting began, or null while the tab is hidden */
  private since: number | null;

  constructor(now: number, visible: boolean) {
    this.since = visible ? now : null;
  }

  /** closes the current stretch: its time counts up to the cap */
  private close(now: number) {
    if (this.since !== null) this.counted += Math.min(Math.max(0, now - this.since), IDLE_CAP_MS);
  }

  /** input of any kind: the stretch before it counts (capped) and a new one begins */
  input(now: number) {
    if (this.since === null) return;
    this.close(now);
    this.since = now;
  }

  /** the tab hid or showed again: hidden time never counts */
  visibility(now: number, visible: boolean) {
    this.close(now);
    this.since = visible ? now : null;
  }

  /** whole milliseconds from shown to now, idle and hidden time cut */
  elapsed(now: number): number {
    const open = this.since === null ? 0 : Math.min(Math.max(0, now - this.since), IDLE_CAP_MS);
    return Math.round(this.counted + open);
  }
}
