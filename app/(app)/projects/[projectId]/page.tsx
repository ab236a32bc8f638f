import type { Metadata } from "next";
import Link from "next/link";
import { forbidden, notFound } from "next/navigation";
import { AppError } from "@/lib/server/errors";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { getProject } from "@/lib/server/projects/projects";
import { EstimatesSummary } from "./estimates-summary";

export const metadata: Metadata = { title: "Project" };

export default async function ProjectPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const user = await requirePageUser(`/projects/${projectId}`);
  const project = await getProject(user, projectId).catch((error: unknown) => {
    if (error instanceof AppError && error.status === 403) forbidden();
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  });
  return (
    <div className="space-y-8">
      <div className="flex items-start justify-between gap-4">
        <div>
          <p className="text-sm text-slate-500">Project</p>
          <h1 className="text-2xl font-semibold tracking-tight">{project.name}</h1>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">{project.description}</p>
          <Link
            href={`/projects/${project.id}/label`}
            className="mt-4 inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500"
          >
            Start labeling <span aria-hidden>→</span>
          </Link>
        </div>
        {project.role === "OWNER" && (
          <nav className="flex shrink-0 gap-2 text-sm" aria-label="Project administration">
            <Link href={`/projects/${project.id}/dashboard`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-50">
              Dashboard
            </Link>
            <Link href={`/projects/${project.id}/members`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-50">
              Members
            </Link>
            <Link href={`/projects/${project.id}/settings`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-50">
              Settings
            </Link>
          </nav>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {[
          ["Items", project.n.toLocaleString("en")],
          ["Embedding", `${project.d} dimensions`],
          ["Reference classes", String(project.classes.length)],
          ["Test clusterings", String(project.clusterings.length)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-xl border border-slate-200 bg-white p-4">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
            <dd className="mt-1 text-lg font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      <EstimatesSummary user={user} projectId={project.id} owner={project.role === "OWNER"} />
      <section className="grid gap-6 lg:grid-cols-2">
        <div className="rounded-xl border border-slate-200 bg-white p-5">
          <h2 className="font-semibold">Test clusterings</h2>
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {project.clusterings.map((c) => (
              <li key={c.name} className="flex justify-between py-2">
                <span className="font-mono">{c.name}</span>
                <span className="text-slate-500">{c.k} clusters</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-5">
          <h2 className="font-semibold">Members</h2>
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {project.members.map((m) => (
              <li key={m.id} className="flex justify-between py-2">
                <span>
                  {m.name} <span className="text-slate-500">{m.email}</span>
                </span>
                <span className="text-slate-500">{m.role.toLowerCase()}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </div>
  );
}
