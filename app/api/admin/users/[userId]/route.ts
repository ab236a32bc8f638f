import { jsonBody, route } from "@/lib/server/http/route";
import { changeRole, changeRoleInput } from "@/lib/server/auth/users";

export const PATCH = route<{ userId: string }>("admin", async ({ user, request, params }) => ({
  user: await changeRole(user, params.userId, await jsonBody(request, changeRoleInput)),
}));
