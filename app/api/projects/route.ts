import { listProjects } from "@/lib/server/projects";
import { route } from "@/lib/server/route";

export const GET = route("user", async ({ user }) => ({ projects: await listProjects(user) }));
