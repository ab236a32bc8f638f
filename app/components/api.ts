/**
 * The browser's one client for our API. `apiRequest` never throws: it reports the status (0 when
 * no response came: offline, connection reset) and the body, for callers that retry (the label
 * outbox); `apiJson` throws the server's `{ error: { message } }` for callers that show it.
 */
export interface ApiResult {
  status: number;
  data: unknown;
}

export async function apiRequest(url: string, init: { method?: string; body?: unknown } = {}): Promise<ApiResult> {
  try {
    const method = init.method ?? "GET";
    const response = await fetch(url, {
      method,
      // a DELETE without a body still declares JSON: Chromium sends no Content-Length for it, and
      // route() reads a request with neither header as one with a body of no declared type (415)
      headers: init.body === undefined && method === "GET" ? undefined : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      cache: "no-store",
    });
    return { status: response.status, data: await response.json().catch(() => null) };
  } catch {
    return { status: 0, data: null };
  }
}

/** What went wrong, in the server's words when it answered. */
export const errorMessage = (result: ApiResult) =>
  (result.data as { error?: { message?: string } } | null)?.error?.message ?? (result.status === 0 ? "No connection to the server." : `The server answered ${result.status}.`);

export async function apiJson<T>(url: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const result = await apiRequest(url, init);
  if (result.status < 200 || result.status >= 300) throw new Error(errorMessage(result));
  return result.data as T;
}
