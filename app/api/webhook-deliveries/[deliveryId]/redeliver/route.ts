import { route } from "@/lib/server/http/route";
import { redeliver } from "@/lib/server/webhooks/webhooks";

/** Sends a delivery again (the project's owners, or the user whose webhook it is). */
export const POST = route<{ deliveryId: string }>("user", async ({ user, params }) => redeliver(user, params.deliveryId));
