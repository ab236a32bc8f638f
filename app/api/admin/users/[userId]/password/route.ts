import { jsonBody, route } from "@/lib/server/route";
import { resetPassword, resetPasswordInput } from "@/lib/server/users";

export const POST = route<{ userId: string }>("admin", async ({ user, request, params }) =>
  resetPassword(user, params.userId, await jsonBody(request, resetPasswordInput)),
);
