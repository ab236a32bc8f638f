import { route } from "@/lib/server/http/route";
import { nextTasks, nextTasksInput } from "@/lib/server/labeling/tasks";

// A POST: handing out tasks leases them, so a same-site <img> must not be able to do it.
export const POST = route<{ projectId: string }>(
  "user",
  async ({ user, params, request }) => {
    const { count } = nextTasksInput.parse(Object.fromEntries(new URL(request.url).searchParams));
    return nextTasks(user, params.projectId, count);
  },
  { tokens: "label" },
);
