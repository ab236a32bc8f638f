import { classExamples, classExamplesQuery } from "@/lib/server/labeling/class-examples";
import { route } from "@/lib/server/http/route";

export const GET = route<{ projectId: string }>("user", async ({ user, params, request }) => {
  const { perClass } = classExamplesQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return classExamples(user, params.projectId, perClass);
});
