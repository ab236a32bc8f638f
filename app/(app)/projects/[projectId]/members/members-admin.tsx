"use client";

import { useState } from "react";
import { apiJson } from "@/app/components/api";
import { PeopleTable } from "@/app/components/people-table";

interface Member {
  id: string;
  name: string;
  email: string;
  role: "OWNER" | "ANNOTATOR";
  since: string;
}
interface Invite {
  id: string;
  email: string | null;
  createdAt: string;
  expiresAt: string;
}

const input = "rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30";
const card = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm";

export function MembersAdmin({ projectId, currentUserId, initialMembers, initialInvites }: { projectId: string; currentUserId: string; initialMembers: Member[]; initialInvites: Invite[] }) {
  const [members, setMembers] = useState(initialMembers);
  const [invites, setInvites] = useState(initialInvites);
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const base = `/api/projects/${projectId}`;

  const run = async (action: () => Promise<string>) => {
    try {
      setMessage({ kind: "ok", text: await action() });
    } catch (error) {
      setMessage({ kind: "error", text: (error as Error).message });
    }
  };

  async function onAdd(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    await run(async () => {
      const email = String(data.get("email") ?? "");
      const { members: list } = await apiJson<{ members: Member[] }>(`${base}/members`, { method: "POST", body: { email, role: String(data.get("role")) } });
      setMembers(list);
      form.reset();
      return `Added ${email}.`;
    });
  }

  const remove = (member: Member) =>
    run(async () => {
      const { members: list } = await apiJson<{ members: Member[] }>(`${base}/members/${member.id}`, { method: "DELETE" });
      setMembers(list);
      return `Removed ${member.email}. Their labels stay in the project.`;
    });

  async function onInvite(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    await run(async () => {
      const { invite } = await apiJson<{ invite: Invite & { path: string } }>(`${base}/invites`, { method: "POST", body: email ? { email } : {} });
      setLink(`${window.location.origin}${invite.path}`);
      setCopied(false);
      setInvites((list) => [{ id: invite.id, email: invite.email, createdAt: new Date().toISOString(), expiresAt: invite.expiresAt }, ...list]);
      return "Invite link created. It works once, for 7 days; copy it now, it is not shown again.";
    });
  }

  const revoke = (invite: Invite) =>
    run(async () => {
      await apiJson(`${base}/invites/${invite.id}`, { method: "DELETE" });
      setInvites((list) => list.filter((i) => i.id !== invite.id));
      return "Invite revoked.";
    });

  async function copy() {
    if (!link) return;
    await navigator.clipboard.writeText(link).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }

  return (
    <div className="space-y-6">
      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`rounded-md px-3 py-2 text-sm ${message.kind === "error" ? "bg-red-50 text-red-700" : "bg-emerald-50 text-emerald-700"}`}>
          {message.text}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <form onSubmit={onAdd} className={card} aria-label="Add a member">
          <h2 className="font-semibold">Add an existing user</h2>
          <div className="mt-3 flex gap-2">
            <input name="email" type="email" required placeholder="Email" aria-label="Email" className={`${input} flex-1`} />
            <select name="role" defaultValue="ANNOTATOR" aria-label="Role" className={input}>
              <option value="ANNOTATOR">annotator</option>
              <option value="OWNER">owner</option>
            </select>
            <button type="submit" className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
              Add
            </button>
          </div>
        </form>
        <form onSubmit={onInvite} className={card} aria-label="Create an invite link">
          <h2 className="font-semibold">Invite by link</h2>
          <div className="mt-3 flex gap-2">
            <input name="email" type="email" placeholder="Email (optional: binds the link to it)" aria-label="Invitee email" className={`${input} flex-1`} />
            <button type="submit" className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
              Create link
            </button>
          </div>
          {link && (
            <div className="mt-3 flex gap-2">
              <input readOnly value={link} aria-label="Invite link" onFocus={(e) => e.currentTarget.select()} className={`${input} flex-1 bg-slate-50 font-mono text-xs`} />
              <button type="button" onClick={copy} className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
                {copied ? "Copied" : "Copy"}
              </button>
            </div>
          )}
        </form>
      </div>

      <PeopleTable>
        {members.map((m) => (
          <tr key={m.id}>
            <td className="px-4 py-2">
              {m.name}
              {m.id === currentUserId && <span className="text-slate-500"> (you)</span>}
            </td>
            <td className="px-4 py-2 text-slate-600">{m.email}</td>
            <td className="px-4 py-2">{m.role.toLowerCase()}</td>
            <td className="px-4 py-2 text-right">
              <button type="button" onClick={() => remove(m)} className="text-slate-500 hover:text-red-600" aria-label={`Remove ${m.email}`}>
                Remove
              </button>
            </td>
          </tr>
        ))}
      </PeopleTable>

      {invites.length > 0 && (
        <section className={card}>
          <h2 className="font-semibold">Open invites</h2>
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {invites.map((i) => (
              <li key={i.id} className="flex items-center justify-between py-2">
                <span>
                  {i.email ?? "anyone with the link"} <span className="text-slate-500">· expires {new Date(i.expiresAt).toLocaleDateString("en")}</span>
                </span>
                <button type="button" onClick={() => revoke(i)} className="text-slate-500 hover:text-red-600">
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
