import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { listUsers } from "@/lib/server/auth/users";
import { UserAdmin } from "./user-admin";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const user = await requirePageUser("/admin/users");
  if (user.role !== "ADMIN") forbidden();
  const users = await listUsers(user);
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
      <p className="mt-1 text-sm text-slate-600">Create accounts, change global roles, reset passwords. A reset signs that user out everywhere.</p>
      <UserAdmin initialUsers={users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() }))} currentUserId={user.id} />
    </div>
  );
}
