import { notFound } from "@/lib/server/errors";
import { route } from "@/lib/server/http/route";

// Any /api path no route matches (a normalised `..` included) answers JSON, as every API error does.
const missing = route<{ path: string[] }>("public", async ({ request }) => {
  throw notFound(`There is no ${request.method} ${new URL(request.url).pathname}.`);
});
export { missing as GET, missing as POST, missing as PUT, missing as PATCH, missing as DELETE };
