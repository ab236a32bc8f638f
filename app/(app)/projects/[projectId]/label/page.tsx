import type { Metadata } from "next";
import { forbidden, notFound } from "next/navigation";
import { AppError } from "@/lib/server/errors";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { getProject } from "@/lib/server/projects/projects";
import { LabelWorkspace } from "./label-workspace";

export const metadata: Metadata = { title: "Label" };

export default async function LabelPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const user = await requirePageUser(`/projects/${projectId}/label`);
  const project = await getProject(user, projectId).catch((error: unknown) => {
    if (error instanceof AppError && error.status === 403) forbidden();
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  });
  return (
    <LabelWorkspace
      userId={user.id}
      project={{
        id: project.id,
        name: project.name,
        mode: project.mode === "pairwise" ? "pairwise" : "clusterwise",
        classMode: project.classMode === "open" ? "open" : "fixed",
        labelBy: project.labelBy === "verify" ? "verify" : "pick",
        itemKind: project.itemKind,
        guidelines: project.guidelines,
        classes: project.classes,
      }}
    />
  );
}
