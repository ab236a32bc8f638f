import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { optionsCatalogue } from "@/lib/server/project-data/options-catalogue";
import { getProjectSettings } from "@/lib/server/projects/project-settings";
import { pageError } from "../page-error";
import { AddClusteringForm, DeleteProject, SettingsForm } from "./settings-forms";
import { WebhookSettings, type WebhookView } from "@/app/components/webhook-settings";
import { AppError } from "@/lib/server/errors";
import { projectWebhook } from "@/lib/server/webhooks/webhooks";

export const metadata: Metadata = { title: "Project settings" };

export default async function ProjectSettingsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const user = await requirePageUser(`/projects/${projectId}/settings`);
  const settings = await getProjectSettings(user, projectId).catch(pageError);
  // the webhook is the owners' business: annotators see no section
  const webhook = await projectWebhook(user, projectId).catch((error) => (error instanceof AppError && error.code === "forbidden" ? null : Promise.reject(error)));
  const catalogue = optionsCatalogue();
  // the settings form edits these; the trainer guard follows the estimator (guarded)
  const { acquisition, design, fixmatch, fixmatchSteps, fixmatchWarmSteps, residualWhenCalibrated, estimator } = catalogue.recommended;
  const { pairDesign, pairUniformShare } = catalogue.recommendedPairs;
  return (
    <div className="space-y-8">
      <div>
        <Link href={`/projects/${projectId}`} className="text-sm text-slate-500 hover:text-slate-700">
          ← {settings.name}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Settings</h1>
        <p className="mt-1 text-sm text-slate-600">
          {settings.labels > 0
            ? `${settings.labels} labels given: the annotation mode and the class names are fixed now; descriptions and everything else can change.`
            : "No labels yet: every setting can change."}{" "}
          <Link href={`/projects/${projectId}/members`} className="text-indigo-600 underline hover:text-indigo-500">
            Members and invites →
          </Link>
        </p>
      </div>
      <SettingsForm
        projectId={projectId}
        initial={settings}
        acquisitions={catalogue.acquisitions}
        designs={catalogue.designs}
        estimators={catalogue.estimators}
        pairDesigns={catalogue.pairDesigns}
        recommended={{ acquisition, design, fixmatch, fixmatchSteps, fixmatchWarmSteps, residualWhenCalibrated, estimator, pairDesign, pairUniformShare }}
      />
      <AddClusteringForm projectId={projectId} />
      {webhook && (
        <WebhookSettings
          base={`/api/projects/${projectId}/webhook`}
          events={
            <>
              <code>round.completed</code> (with the estimates), <code>round.failed</code> and <code>stop_rule.met</code>
            </>
          }
          initial={JSON.parse(JSON.stringify(webhook)) as WebhookView}
        />
      )}
      <DeleteProject projectId={projectId} name={settings.name} />
    </div>
  );
}
