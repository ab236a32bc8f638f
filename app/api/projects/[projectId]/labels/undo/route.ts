import { undoLastLabel } from "@/lib/server/labels";
import { route } from "@/lib/server/route";

export const POST = route<{ projectId: string }>("user", async ({ user, params }) => undoLastLabel(user, params.projectId));
