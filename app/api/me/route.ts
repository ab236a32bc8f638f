import { route } from "@/lib/server/http/route";

export const GET = route("user", async ({ user }) => ({ user }));
