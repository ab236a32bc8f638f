import { importUpload } from "@/lib/server/imports/imports";
import { listProjects } from "@/lib/server/projects/projects";
import { route } from "@/lib/server/http/route";

export const GET = route("user", async ({ user }) => ({ projects: await listProjects(user) }));

/** A new project from an uploaded bundle (multipart: a .zip, or the files one by one), streamed. */
export const POST = route("researcher", async ({ user, request }) => ({ import: await importUpload(user, request) }), { body: "multipart/form-data" });
