import { listItems, listItemsQuery } from "@/lib/server/labeling/items";
import { route } from "@/lib/server/http/route";

/**
 * ?after=INDEX&limit=100: one page of items in index order, and the cursor of the next;
 * &clustering=NAME[&cluster=K][&class=C]: only that cell, with each item's cluster and class.
 */
export const GET = route<{ projectId: string }>("user", async ({ user, params, request }) =>
  listItems(user, params.projectId, listItemsQuery.parse(Object.fromEntries(new URL(request.url).searchParams))),
);
