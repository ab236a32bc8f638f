import { readiness } from "@/lib/server/ops/readiness";
import { jsonResponse, route } from "@/lib/server/http/route";

/** Readiness: 200 when the database answers, migrations are current and a worker is alive; 503 otherwise. */
export const dynamic = "force-dynamic";
export const GET = route("public", async () => {
  const state = await readiness();
  return jsonResponse(state, state.ready ? 200 : 503);
});
