import Link from "next/link";
import { headers } from "next/headers";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { SignOutButton } from "@/app/components/sign-out-button";

export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const path = (await headers()).get("x-pathname") ?? "/projects";
  const user = await requirePageUser(path);
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-6 px-6">
          <Link href="/projects" className="flex items-center gap-2 font-semibold tracking-tight">
            <span className="flex h-7 w-7 items-center justify-center rounded-lg bg-indigo-600 text-sm font-bold text-white">C</span>
            Cereal Studio
          </Link>
          <nav className="flex gap-4 text-sm text-slate-600">
            <Link href="/projects" className="hover:text-slate-900">Projects</Link>
            {user.role === "ADMIN" && <Link href="/admin/users" className="hover:text-slate-900">Users</Link>}
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span className="text-slate-600" data-testid="current-user">
              {user.name} <span className="text-slate-500">· {user.role.toLowerCase()}</span>
            </span>
            <Link href="/docs/api" className="text-slate-600 hover:text-slate-900">API</Link>
            <Link href="/account/tokens" className="text-slate-600 hover:text-slate-900">Access tokens</Link>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </div>
  );
}
