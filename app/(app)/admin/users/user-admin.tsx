"use client";

import { useState } from "react";
import { apiJson } from "@/app/components/api";
import { PeopleTable } from "@/app/components/people-table";

type Role = "ADMIN" | "RESEARCHER" | "ANNOTATOR";
interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
}
const ROLES: Role[] = ["ADMIN", "RESEARCHER", "ANNOTATOR"];
const input = "rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30";

export function UserAdmin({ initialUsers, currentUserId }: { initialUsers: UserRow[]; currentUserId: string }) {
  const [users, setUsers] = useState(initialUsers);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  const run = async (action: () => Promise<string>) => {
    try {
      setMessage({ kind: "ok", text: await action() });
    } catch (error) {
      setMessage({ kind: "error", text: (error as Error).message });
    }
  };

  async function onCreate(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    await run(async () => {
      const { user } = await apiJson<{ user: UserRow }>("/api/admin/users", {
        method: "POST",
        body: Object.fromEntries(["email", "name", "password", "role"].map((k) => [k, String(form.get(k) ?? "")])),
      });
      setUsers((list) => [...list, user]);
      formElement.reset();
      return `Created ${user.email}.`;
    });
  }

  const changeRole = (user: UserRow, role: Role) =>
    run(async () => {
      const { user: updated } = await apiJson<{ user: UserRow }>(`/api/admin/users/${user.id}`, { method: "PATCH", body: { role } });
      setUsers((list) => list.map((u) => (u.id === updated.id ? updated : u)));
      return `${updated.email} is now ${role.toLowerCase()}.`;
    });

  const resetPassword = (user: UserRow) => {
    const password = window.prompt(`New password for ${user.email} (at least 8 characters):`);
    if (!password) return;
    return run(async () => {
      await apiJson(`/api/admin/users/${user.id}/password`, { method: "POST", body: { password } });
      return `Password of ${user.email} reset; their sessions are ended.`;
    });
  };

  return (
    <div className="mt-6 space-y-6">
      {message && (
        <p role={message.kind === "error" ? "alert" : "status"} className={`rounded-md px-3 py-2 text-sm ${message.kind === "error" ? "bg-red-50 text-red-700" : "bg-emerald-50 text-emerald-700"}`}>
          {message.text}
        </p>
      )}
      <form onSubmit={onCreate} className="grid gap-3 rounded-xl border border-slate-200 bg-white p-5 sm:grid-cols-5" aria-label="Create a user">
        <input name="name" placeholder="Name" required className={input} aria-label="Name" />
        <input name="email" type="email" placeholder="Email" required className={input} aria-label="Email" />
        <input name="password" type="password" placeholder="Password (8+)" required minLength={8} className={input} aria-label="Password" />
        <select name="role" defaultValue="ANNOTATOR" className={input} aria-label="Role">
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r.toLowerCase()}
            </option>
          ))}
        </select>
        <button type="submit" className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
          Create user
        </button>
      </form>
      <PeopleTable>
        {users.map((u) => (
          <tr key={u.id}>
            <td className="px-4 py-2">{u.name}</td>
            <td className="px-4 py-2 text-slate-600">{u.email}</td>
            <td className="px-4 py-2">
              <select
                aria-label={`Role of ${u.email}`}
                value={u.role}
                disabled={u.id === currentUserId}
                onChange={(e) => changeRole(u, e.target.value as Role)}
                className="rounded-md border border-slate-300 px-2 py-1 text-sm disabled:bg-slate-50"
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r.toLowerCase()}
                  </option>
                ))}
              </select>
            </td>
            <td className="px-4 py-2 text-right">
              <button type="button" onClick={() => resetPassword(u)} className="text-indigo-600 hover:text-indigo-500">
                Reset password
              </button>
            </td>
          </tr>
        ))}
      </PeopleTable>
    </div>
  );
}
