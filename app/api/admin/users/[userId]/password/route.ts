import { jsonBody, route } from "@/lib/server/http/route";
import { resetPassword, resetPasswordInput } from "@/lib/server/auth/users";

export const POST = route<{ userId: string }>("admin", async ({ user, request, params }) =>
  resetPassword(user, params.userId, await jsonBody(request, resetPasswordInput)),
);
