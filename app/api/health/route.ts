import { route } from "@/lib/server/http/route";

/** Liveness for load balancers and supervisors: the process answers. No auth, no details. */
export const dynamic = "force-dynamic";
export const GET = route("public", async () => ({ status: "ok" }));
