import { route } from "@/lib/server/route";
import { nextTasks, nextTasksInput } from "@/lib/server/tasks";

export const GET = route<{ projectId: string }>("user", async ({ user, params, request }) => {
  const { count } = nextTasksInput.parse(Object.fromEntries(new URL(request.url).searchParams));
  return nextTasks(user, params.projectId, count);
});
