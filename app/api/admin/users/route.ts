import { jsonBody, route } from "@/lib/server/http/route";
import { createUser, createUserInput, listUsers } from "@/lib/server/auth/users";

export const GET = route("admin", async ({ user }) => ({ users: await listUsers(user) }));
export const POST = route("admin", async ({ user, request }) => ({ user: await createUser(user, await jsonBody(request, createUserInput)) }));
