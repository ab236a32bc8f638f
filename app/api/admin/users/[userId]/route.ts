import { jsonBody, route } from "@/lib/server/route";
import { changeRole, changeRoleInput } from "@/lib/server/users";

export const PATCH = route<{ userId: string }>("admin", async ({ user, request, params }) => ({
  user: await changeRole(user, params.userId, await jsonBody(request, changeRoleInput)),
}));
