import { jsonBody, route } from "@/lib/server/http/route";
import { removeUserWebhook, setUserWebhook, userWebhook, webhookInput } from "@/lib/server/webhooks/webhooks";

/** Your own webhook (import.completed, import.failed) and its latest deliveries. */
export const GET = route("user", async ({ user }) => userWebhook(user));
export const PUT = route("user", async ({ user, request }) => setUserWebhook(user, await jsonBody(request, webhookInput)));
export const DELETE = route("user", async ({ user }) => removeUserWebhook(user));
