import { route } from "@/lib/server/route";

export const GET = route("user", async ({ user }) => ({ user }));
