import { createInvite, createInviteInput, listInvites } from "@/lib/server/projects/invites";
import { jsonBody, route } from "@/lib/server/http/route";

type Params = { projectId: string };

export const GET = route<Params>("user", async ({ user, params }) => ({ invites: await listInvites(user, params.projectId) }));

export const POST = route<Params>("owner", async ({ user, params, request }) => ({
  invite: await createInvite(user, params.projectId, await jsonBody(request, createInviteInput)),
}));
