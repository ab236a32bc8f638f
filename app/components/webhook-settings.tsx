"use client";

import { useState } from "react";
import { apiJson } from "@/app/components/api";
import { INPUT_CLASS } from "@/app/components/form-styles";

export interface WebhookView {
  webhook: { id: string; url: string; secret: string } | null;
  deliveries: { id: string; event: string; status: string; createdAt: string; attempts: { statusCode: number | null; latencyMs: number; excerpt: string; createdAt: string }[] }[];
}

const STATUS_STYLE: Record<string, string> = { delivered: "text-emerald-700", failed: "text-red-700", pending: "text-amber-700" };

/**
 * A webhook's settings (a project's, for its owners, on the settings page; a user's own, for
 * import events, on the tokens page): URL, secret, the delivery log with each attempt, redelivery.
 * `base` is its API route; `events` says what it carries.
 */
export function WebhookSettings({ base, events, initial }: { base: string; events: React.ReactNode; initial: WebhookView }) {
  const [view, setView] = useState(initial);
  const [url, setUrl] = useState(initial.webhook?.url ?? "");
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<WebhookView | void>) => {
    try {
      const next = await action();
      if (next) setView(next);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const save = (rotateSecret: boolean) => run(() => apiJson<WebhookView>(base, { method: "PUT", body: { url, rotateSecret } }));
  const refresh = () => run(() => apiJson<WebhookView>(base));
  const remove = () => run(async () => (await apiJson(base, { method: "DELETE" }), { webhook: null, deliveries: [] }));
  const redeliver = (id: string) => run(async () => (await apiJson(`/api/webhook-deliveries/${id}/redeliver`, { method: "POST" }), apiJson<WebhookView>(base)));

  return (
    <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm" aria-labelledby="webhook-heading">
      <h2 id="webhook-heading" className="text-lg font-semibold">Webhook</h2>
      <p className="mt-1 text-sm text-slate-600">
        POSTs {events} to your URL, signed per Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>); failed
        deliveries are retried with backoff.
      </p>
      {error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <form
        className="mt-4 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void save(false);
        }}
      >
        <label className="min-w-80 flex-1 text-sm font-medium text-slate-700">
          Receiver URL
          <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.org/hooks/cereal" className={INPUT_CLASS} />
        </label>
        <button type="submit" className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
          Save
        </button>
        {view.webhook && (
          <>
            <button type="button" onClick={() => save(true)} className="rounded-md border border-slate-300 px-3 py-2 text-sm hover:bg-slate-50">
              New secret
            </button>
            <button type="button" onClick={remove} className="rounded-md border border-red-200 px-3 py-2 text-sm text-red-700 hover:bg-red-50">
              Remove
            </button>
          </>
        )}
      </form>
      {view.webhook && (
        <>
          <p className="mt-3 text-sm text-slate-600">
            Secret: <code data-testid="webhook-secret" className="break-all rounded bg-slate-50 px-1 font-mono">{view.webhook.secret}</code>
          </p>
          <div className="mt-4 flex items-center justify-between">
            <h3 className="text-sm font-semibold text-slate-700">Latest deliveries</h3>
            <button type="button" onClick={refresh} className="text-sm text-indigo-600 hover:text-indigo-500">
              Refresh
            </button>
          </div>
          <table className="mt-2 w-full text-sm" aria-label="Webhook deliveries">
            <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="py-1 font-medium">Event</th>
                <th className="py-1 font-medium">Sent</th>
                <th className="py-1 font-medium">Status</th>
                <th className="py-1 font-medium">Attempts (status · latency · answer)</th>
                <th />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 align-top">
              {view.deliveries.length === 0 && (
                <tr>
                  <td colSpan={5} className="py-2 text-slate-500">
                    Nothing sent yet.
                  </td>
                </tr>
              )}
              {view.deliveries.map((d) => (
                <tr key={d.id}>
                  <td className="py-2 font-mono">{d.event}</td>
                  <td className="py-2">{d.createdAt.slice(0, 19).replace("T", " ")}</td>
                  <td className={`py-2 ${STATUS_STYLE[d.status] ?? ""}`}>{d.status}</td>
                  <td className="py-2">
                    <ol className="space-y-0.5">
                      {d.attempts.map((a, i) => (
                        <li key={i} className="text-slate-600">
                          {a.statusCode ?? "no answer"} · {a.latencyMs} ms · <span className="break-all">{a.excerpt.slice(0, 120) || "(empty)"}</span>
                        </li>
                      ))}
                    </ol>
                  </td>
                  <td className="py-2 text-right">
                    <button type="button" onClick={() => redeliver(d.id)} className="text-indigo-600 hover:text-indigo-500">
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
