import type { Metadata } from "next";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { requireProjectRole } from "@/lib/server/auth/project-access";
import { getProject } from "@/lib/server/projects/projects";
import { pageError } from "../page-error";
import { Dashboard } from "./dashboard";

export const metadata: Metadata = { title: "Dashboard" };

/** The researcher's dashboard: owner-only (annotators see estimates, where allowed, on the project page). */
export default async function DashboardPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const user = await requirePageUser(`/projects/${projectId}/dashboard`);
  await requireProjectRole(user, projectId, "OWNER").catch(pageError);
  const project = await getProject(user, projectId).catch(pageError);
  return (
    <Dashboard
      project={{
        id: project.id,
        name: project.name,
        mode: project.mode,
        n: project.n,
        budget: project.budget,
        paused: project.paused,
        hasReferenceLabels: project.hasReferenceLabels ?? false,
        classes: project.classes.map((c) => ({ index: c.index, name: c.name })),
        clusterings: project.clusterings.map((c) => ({ name: c.name, k: c.k })),
        itemKind: project.itemKind,
      }}
    />
  );
}
