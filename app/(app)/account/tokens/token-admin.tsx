"use client";

import { useState } from "react";
import { apiJson } from "@/app/components/api";

export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  scope: "read" | "label" | "write";
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
const SCOPES: TokenRow["scope"][] = ["read", "label", "write"];
const EXPIRY_DAYS = [7, 30, 90, 365];
const input = "rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30";
const day = (iso: string | null, none: string) => (iso ? iso.slice(0, 10) : none);

export function TokenAdmin({ initialTokens }: { initialTokens: TokenRow[] }) {
  const [tokens, setTokens] = useState(initialTokens);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onCreate(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const days = Number(form.get("expiresInDays"));
    try {
      const { token, ...row } = await apiJson<TokenRow & { token: string }>("/api/tokens", {
        method: "POST",
        body: { name: String(form.get("name") ?? ""), scope: String(form.get("scope")), ...(days ? { expiresInDays: days } : {}) },
      });
      setTokens((list) => [row, ...list]);
      setCreated({ name: row.name, token });
      setError(null);
      formElement.reset();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function revoke(row: TokenRow) {
    if (!window.confirm(`Revoke "${row.name}"? Scripts using it stop working at once.`)) return;
    try {
      const updated = await apiJson<TokenRow>(`/api/tokens/${row.id}`, { method: "DELETE" });
      setTokens((list) => list.map((t) => (t.id === updated.id ? updated : t)));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <div className="mt-6 space-y-6">
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
      {created && (
        <div role="status" className="rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-800">
          <p>
            Token <strong>{created.name}</strong> made. Copy it now: it is not shown again.
          </p>
          <code data-testid="new-token" className="mt-2 block break-all rounded bg-white px-3 py-2 font-mono text-slate-900">
            {created.token}
          </code>
        </div>
      )}
      <form onSubmit={onCreate} className="grid gap-3 rounded-xl border border-slate-200 bg-white p-5 sm:grid-cols-4" aria-label="Make a token">
        <input name="name" placeholder="Name (what uses it)" required maxLength={100} className={input} aria-label="Name" />
        <select name="scope" defaultValue="read" className={input} aria-label="Scope">
          {SCOPES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <select name="expiresInDays" defaultValue="90" className={input} aria-label="Expires">
          {EXPIRY_DAYS.map((d) => (
            <option key={d} value={d}>
              expires in {d} days
            </option>
          ))}
          <option value="0">never expires</option>
        </select>
        <button type="submit" className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
          Make token
        </button>
      </form>
      <div className="overflow-hidden rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              {["Name", "Prefix", "Scope", "Created", "Last used", "Expires", ""].map((h) => (
                <th key={h} className="px-4 py-2 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {tokens.length === 0 && (
              <tr>
                <td colSpan={7} className="px-4 py-3 text-slate-500">
                  No tokens yet.
                </td>
              </tr>
            )}
            {tokens.map((t) => (
              <tr key={t.id} className={t.revokedAt ? "text-slate-400" : undefined}>
                <td className="px-4 py-2">{t.name}</td>
                <td className="px-4 py-2 font-mono">cereal_{t.prefix}_…</td>
                <td className="px-4 py-2">{t.scope}</td>
                <td className="px-4 py-2">{day(t.createdAt, "")}</td>
                <td className="px-4 py-2">{day(t.lastUsedAt, "never")}</td>
                <td className="px-4 py-2">{day(t.expiresAt, "never")}</td>
                <td className="px-4 py-2 text-right">
                  {t.revokedAt ? (
                    <span>revoked {day(t.revokedAt, "")}</span>
                  ) : (
                    <button type="button" onClick={() => revoke(t)} className="text-red-600 hover:text-red-500" aria-label={`Revoke ${t.name}`}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
