import { itemImage } from "@/lib/server/labeling/items";
import { route } from "@/lib/server/http/route";

export const GET = route<{ projectId: string; index: string }>("user", async ({ user, params, request }) =>
  itemImage(user, params.projectId, params.index, request.headers.get("if-none-match")),
);
