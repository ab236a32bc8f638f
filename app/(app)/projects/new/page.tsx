import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { uploadLimitBytes } from "@/lib/server/imports/uploads";
import { NewProjectForm } from "./new-project-form";

export const metadata: Metadata = { title: "New project" };

export default async function NewProjectPage() {
  const user = await requirePageUser("/projects/new");
  if (user.role === "ANNOTATOR") forbidden();
  return (
    <div className="max-w-3xl">
      <h1 className="text-2xl font-semibold tracking-tight">New project</h1>
      <p className="mt-1 text-sm text-slate-600">
        Upload a dataset bundle: <span className="font-mono">manifest.json</span>, <span className="font-mono">embeddings.npy</span>, the test clusterings, and
        optionally items and reference labels. Drop the folder or a .zip of it. Bundles larger than the upload limit import faster with{" "}
        <span className="font-mono">npm run cereal -- import</span>.
      </p>
      <NewProjectForm limitBytes={uploadLimitBytes()} />
    </div>
  );
}
