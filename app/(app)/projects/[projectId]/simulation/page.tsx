import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { optionsCatalogue } from "@/lib/server/project-data/options-catalogue";
import { requireProjectRole } from "@/lib/server/auth/project-access";
import { getProject } from "@/lib/server/projects/projects";
import { pageError } from "../page-error";
import { SimulationRuns } from "./simulation-runs";

export const metadata: Metadata = { title: "Simulation" };

/** Oracle simulations (owner): how would the loop have done here, with the reference labels answering? */
export default async function SimulationPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const user = await requirePageUser(`/projects/${projectId}/simulation`);
  await requireProjectRole(user, projectId, "OWNER").catch(pageError);
  const project = await getProject(user, projectId).catch(pageError);
  const catalogue = optionsCatalogue();
  return (
    <div className="space-y-5">
      <div>
        <Link href={`/projects/${projectId}/dashboard`} className="text-xs text-slate-500 hover:text-slate-700">
          ← Dashboard
        </Link>
        <h1 className="text-xl font-semibold tracking-tight">Simulation · {project.name}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          The reference labels answer every query, so each round&apos;s estimate can be compared with the true value. The area under the error curve
          (AEC) summarises a run: lower is better. A run occupies the worker, so rounds of live labeling wait behind it; keep budgets modest.
        </p>
      </div>
      {project.hasReferenceLabels ? (
        <SimulationRuns
          projectId={projectId}
          acquisitions={catalogue.acquisitions}
          designs={catalogue.designs}
          estimators={catalogue.estimators}
          recommended={catalogue.recommended}
          pairDesigns={catalogue.pairDesigns}
          recommendedPairs={catalogue.recommendedPairs}
          projectMode={project.mode}
          n={project.n}
        />
      ) : (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          This project&apos;s bundle has no reference labels (labels.npy), so there is no oracle to simulate with.
        </p>
      )}
    </div>
  );
}
