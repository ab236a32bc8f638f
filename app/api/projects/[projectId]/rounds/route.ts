import { listRounds } from "@/lib/server/rounds/round-history";
import { route } from "@/lib/server/http/route";

export const GET = route<{ projectId: string }>("user", async ({ user, params }) => listRounds(user, params.projectId));
