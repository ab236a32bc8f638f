import { expect, type Page } from "@playwright/test";

/** Helpers for the labeling workspace specs: everything goes through the keyboard and the API. */
export interface Answered {
  taskId: string;
  itemIndex: number;
  /** the stage the task was drawn in, and the round whose ranking drew it (null: drawn uniformly before any round) */
  stage: number;
  drawnByRound: number | null;
}

export interface LabelRow {
  item_index: number;
  item_b_index: number | null;
  kind: string;
  class_index: number | null;
  answer: string | null;
  annotator: string;
  /** how long the answer took on the label page (answer-timer.ts) */
  duration_ms: number | null;
  /** one class at a time: the "same class?" answers the label took (null: picked from the list in a project that picks) */
  verify_answers: number | null;
  batch: number;
  draw_order: number;
  overflow: boolean;
}

export async function projectId(page: Page, name: string): Promise<string> {
  const { projects } = (await (await page.request.get("/api/projects")).json()) as { projects: { id: string; name: string }[] };
  const project = projects.find((p) => p.name === name);
  if (!project) throw new Error(`no project named ${name}`);
  return project.id;
}

export const workspace = (page: Page) => page.getByTestId("workspace");

/** The item on screen, once it takes answers (a key within 150 ms of a new item is ignored as a double press). */
export async function currentTask(page: Page): Promise<Answered> {
  const ws = workspace(page);
  await expect(ws).toHaveAttribute("data-armed", "true");
  return {
    taskId: (await ws.getAttribute("data-task-id"))!,
    itemIndex: Number(await ws.getAttribute("data-item-index")),
    stage: Number(await ws.getAttribute("data-stage")),
    drawnByRound: (await ws.getAttribute("data-drawn-by-round")) ? Number(await ws.getAttribute("data-drawn-by-round")) : null,
  };
}

/** Answers the item on screen with one key press and waits for the next item. */
export async function answerWith(page: Page, key: string): Promise<Answered> {
  const task = await currentTask(page);
  await page.keyboard.press(key);
  await expect(workspace(page)).not.toHaveAttribute("data-task-id", task.taskId);
  return task;
}

export async function allSaved(page: Page) {
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-unsaved", "0", { timeout: 15_000 });
}

/** The owner's labels export (JSONL), read back row by row. */
export async function exportedLabels(page: Page, id: string): Promise<LabelRow[]> {
  const response = await page.request.get(`/api/projects/${id}/exports/labels?format=jsonl`);
  expect(response.status()).toBe(200);
  return (await response.text())
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LabelRow);
}

export async function snapshot(page: Page, id: string) {
  return (await (await page.request.get(`/api/projects/${id}/progress`)).json()) as {
    labels: number;
    stages: { latest: number; settled: number; fresh: number; batchSize: number } | null;
    round: { index: number; status: string } | null;
    lastRound: { index: number } | null;
  };
}
