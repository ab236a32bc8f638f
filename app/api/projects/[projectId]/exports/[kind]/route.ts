import { exportConfig, exportEstimates, exportFormat, exportItems, exportLabels } from "@/lib/server/exports/exports";
import { exportBundle } from "@/lib/server/exports/bundle-export";
import { notFound } from "@/lib/server/errors";
import { route } from "@/lib/server/http/route";
import { exportReport, reportQuery } from "@/lib/server/report/project-report";

/** GET /api/projects/:id/exports/labels|items?format=csv|jsonl|parquet, /exports/estimates, /exports/config, /exports/bundle (.zip),
 * /exports/report?metrics=nmi,ari&clustering=NAME&measure=silhouette (.zip) */
export const GET = route<{ projectId: string; kind: string }>("user", async ({ user, params, request }) => {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const { format } = exportFormat.parse(query);
  switch (params.kind) {
    case "labels":
      return exportLabels(user, params.projectId, format);
    case "items":
      return exportItems(user, params.projectId, format);
    case "estimates":
      return exportEstimates(user, params.projectId);
    case "config":
      return exportConfig(user, params.projectId);
    case "bundle":
      return exportBundle(user, params.projectId);
    case "report":
      return exportReport(user, params.projectId, reportQuery.parse(query));
    default:
      throw notFound("Exports are labels, items, estimates, config, bundle and report.");
  }
});
