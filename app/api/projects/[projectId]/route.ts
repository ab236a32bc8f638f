import { deleteProject, deleteProjectInput, getProject } from "@/lib/server/projects/projects";
import { jsonBody, route } from "@/lib/server/http/route";

type Params = { projectId: string };

export const GET = route<Params>("user", async ({ user, params }) => ({ project: await getProject(user, params.projectId) }));

/** Body: { confirmName } — the project's name, typed by the owner. */
export const DELETE = route<Params>("owner", async ({ user, params, request }) => deleteProject(user, params.projectId, await jsonBody(request, deleteProjectInput)));
