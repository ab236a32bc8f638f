import { jsonBody, route } from "@/lib/server/http/route";
import { projectWebhook, removeProjectWebhook, setProjectWebhook, webhookInput } from "@/lib/server/webhooks/webhooks";

type Params = { projectId: string };

/** The project's webhook (round.completed, round.failed, stop_rule.met) and its latest deliveries (owner). */
export const GET = route<Params>("owner", async ({ user, params }) => projectWebhook(user, params.projectId));
export const PUT = route<Params>("owner", async ({ user, params, request }) => setProjectWebhook(user, params.projectId, await jsonBody(request, webhookInput)));
export const DELETE = route<Params>("owner", async ({ user, params }) => removeProjectWebhook(user, params.projectId));
