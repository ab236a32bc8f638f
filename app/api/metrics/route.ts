import { metricsText } from "@/lib/server/ops/metrics";
import { route } from "@/lib/server/http/route";

/** Prometheus text exposition, for administrators (scrape tokens come later). */
export const dynamic = "force-dynamic";
export const GET = route("admin", async () => {
  const { contentType, body } = await metricsText();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
