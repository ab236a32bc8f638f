import { route } from "@/lib/server/http/route";
import { openApiDocument } from "@/lib/server/api-docs/openapi-document";

/** The OpenAPI 3.1 document of this API, for any signed-in user or token (the docs page renders it). */
export const GET = route("user", async () => openApiDocument());
