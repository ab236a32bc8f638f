import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/server/page-session";
import { listProjects } from "@/lib/server/projects";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  const user = await requirePageUser("/projects");
  const projects = await listProjects(user);
  return (
    <div>
      <div className="flex items-end justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
          <p className="mt-1 text-sm text-slate-600">Clusterings to evaluate, and the labels that evaluate them.</p>
        </div>
      </div>
      {projects.length === 0 ? (
        <div className="mt-8 rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center text-slate-600">
          You are not a member of any project yet. A project owner can add you, or send you an invite link.
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {projects.map((p) => (
            <li key={p.id}>
              <Link href={`/projects/${p.id}`} className="block rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow">
                <div className="flex items-start justify-between gap-3">
                  <h2 className="font-semibold">{p.name}</h2>
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{p.role.toLowerCase()}</span>
                </div>
                <p className="mt-1 line-clamp-2 text-sm text-slate-600">{p.description}</p>
                <p className="mt-3 text-xs text-slate-500">
                  {p.n.toLocaleString("en")} items · {p.d}-d embeddings · bundle {p.bundleName}
                </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
