import { acceptInvite, acceptInviteInput, describeInvite } from "@/lib/server/projects/invites";
import { jsonBody, route } from "@/lib/server/http/route";

type Params = { token: string };

// Public: the invitee may have no account yet. The 256-bit token is the authorization.
export const GET = route<Params>("public", async ({ params }) => ({ invite: await describeInvite(params.token) }));

/** Signed in: joins as that user. Signed out: { name, email, password } creates an annotator account. */
export const POST = route<Params>("public", async ({ user, params, request }) => ({
  accepted: await acceptInvite(params.token, user, () => jsonBody(request, acceptInviteInput)),
}));
