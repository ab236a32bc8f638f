import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { listProjects } from "@/lib/server/projects/projects";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  const user = await requirePageUser("/projects");
  const projects = await listProjects(user);
  const canCreate = user.role !== "ANNOTATOR";
  return (
    <div>
      <div className="flex items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
          <p className="mt-1 text-sm text-slate-600">Clusterings to evaluate, and the labels that evaluate them.</p>
        </div>
        {canCreate && (
          <Link href="/projects/new" className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500">
            New project
          </Link>
        )}
      </div>
      {projects.length === 0 ? (
        <div className="mt-8 rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center text-slate-600">
          You are not a member of any project yet.{" "}
          {canCreate ? "Create one from a dataset bundle with New project, or ask a project owner to add you." : "A project owner can add you, or send you an invite link."}
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {projects.map((p) => {
            const share = Math.min(1, p.labels / Math.max(1, p.budget));
            return (
              <li key={p.id} className="relative">
                <Link href={`/projects/${p.id}`} className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow">
                  <div className="flex items-start justify-between gap-3">
                    <h2 className="font-semibold">{p.name}</h2>
                    <span className="flex shrink-0 gap-1.5">
                      {p.paused && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">paused</span>}
                      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{p.role.toLowerCase()}</span>
                    </span>
                  </div>
                  <p className="mt-1 line-clamp-2 text-sm text-slate-600">{p.description}</p>
                  <div className="mt-4" aria-label={`${p.labels} of ${p.budget} labels`}>
                    <div className="flex justify-between text-xs text-slate-500">
                      <span>
                        {p.labels.toLocaleString("en")} / {p.budget.toLocaleString("en")} labels
                      </span>
                      <span>{Math.round(share * 100)}%</span>
                    </div>
                    <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-100">
                      <div className="h-full rounded-full bg-indigo-500" style={{ width: `${share * 100}%` }} />
                    </div>
                  </div>
                  {p.lastEstimate && (
                    <p className="mt-3 text-xs text-slate-600">
                      NMI after {p.lastEstimate.nLabels} labels:{" "}
                      {p.lastEstimate.values.slice(0, 3).map((v, i) => (
                        <span key={v.clustering}>
                          {i > 0 && ", "}
                          <span className="font-mono">{v.clustering}</span> {v.value.toFixed(3)}
                        </span>
                      ))}
                    </p>
                  )}
                  <p className="mt-3 pr-32 text-xs text-slate-500">
                    {p.n.toLocaleString("en")} items · {p.d}-d embeddings · {p.mode} · bundle {p.bundleName}
                  </p>
                </Link>
                {/* A sibling, not inside the card's link: links do not nest. */}
                <Link
                  href={`/projects/${p.id}/label`}
                  title={`Start labeling ${p.name}`}
                  className="absolute right-4 bottom-4 rounded-md bg-indigo-600 px-2.5 py-1 text-xs font-semibold text-white shadow-sm hover:bg-indigo-500"
                >
                  Start labeling <span aria-hidden>→</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
