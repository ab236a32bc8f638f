import { itemImage } from "@/lib/server/items";
import { route } from "@/lib/server/route";

export const GET = route<{ projectId: string; index: string }>("user", async ({ user, params, request }) =>
  itemImage(user, params.projectId, params.index, request.headers.get("if-none-match")),
);
