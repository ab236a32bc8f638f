import { getProjectSettings, projectSettingsInput, updateProjectSettings } from "@/lib/server/projects/project-settings";
import { jsonBody, route } from "@/lib/server/http/route";

type Params = { projectId: string };

export const GET = route<Params>("user", async ({ user, params }) => ({ settings: await getProjectSettings(user, params.projectId) }));

export const PATCH = route<Params>("owner", async ({ user, params, request }) => ({
  settings: await updateProjectSettings(user, params.projectId, await jsonBody(request, projectSettingsInput)),
}));
