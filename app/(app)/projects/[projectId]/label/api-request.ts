import type { SendResult } from "./label-outbox";

/** A JSON request that reports the status instead of throwing: 0 when no response came (offline). */
export async function apiRequest(url: string, init: { method?: string; body?: unknown } = {}): Promise<SendResult> {
  try {
    const response = await fetch(url, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? undefined : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      cache: "no-store",
    });
    return { status: response.status, data: await response.json().catch(() => null) };
  } catch {
    return { status: 0, data: null };
  }
}

export const errorMessage = (result: SendResult) =>
  (result.data as { error?: { message?: string } } | null)?.error?.message ?? (result.status === 0 ? "No connection to the server." : `The server answered ${result.status}.`);
