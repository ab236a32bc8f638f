import { addMember, addMemberInput, listMembers } from "@/lib/server/projects/members";
import { jsonBody, route } from "@/lib/server/http/route";

type Params = { projectId: string };

export const GET = route<Params>("user", async ({ user, params }) => ({ members: await listMembers(user, params.projectId) }));

export const POST = route<Params>("owner", async ({ user, params, request }) => ({
  members: await addMember(user, params.projectId, await jsonBody(request, addMemberInput)),
}));
