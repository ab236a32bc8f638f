import { importUpload } from "@/lib/server/imports";
import { listProjects } from "@/lib/server/projects";
import { route } from "@/lib/server/route";

export const GET = route("user", async ({ user }) => ({ projects: await listProjects(user) }));

/** A new project from an uploaded bundle (multipart: a .zip, or the files one by one), streamed. */
export const POST = route("researcher", async ({ user, request }) => ({ import: await importUpload(user, request) }), { body: "multipart/form-data" });
