import { addClusteringUpload } from "@/lib/server/projects/clusterings";
import { route } from "@/lib/server/http/route";

/** Multipart: name, optional k, the int32 [N] ids as "file", optionally the float32 [N, K] "soft". */
export const POST = route<{ projectId: string }>(
  "owner",
  async ({ user, params, request }) => ({ clustering: await addClusteringUpload(user, params.projectId, request) }),
  { body: "multipart/form-data" },
);
