import { getProject } from "@/lib/server/projects";
import { route } from "@/lib/server/route";

export const GET = route<{ projectId: string }>("user", async ({ user, params }) => ({ project: await getProject(user, params.projectId) }));
