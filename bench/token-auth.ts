/**
 * `node --import tsx bench/token-auth.ts [--requests 2000]`: what authenticating a request costs,
 * by session cookie (JWT decode + user lookup) and by access token (throttle check, token and
 * user lookup, SHA-256), through route() on GET /api/me in process. Prints the medians, p95 and
 * the ratio. Uses a throw-away data folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-bench-"));
process.env.CEREAL_DATA_DIR = dataDir;
process.env.NEXTAUTH_SECRET = "bench";
process.env.CEREAL_LOG_LEVEL = "silent";
const requests = Number(process.argv[process.argv.indexOf("--requests") + 1] || 2000);

const { migrateDatabase } = await import("../lib/server/migrate.ts");
const { serverConfig } = await import("../lib/server/config.ts");
migrateDatabase(serverConfig().databasePath);
const { createTestUser, sessionCookie } = await import("../lib/server/http/test-requests.ts");
const { createToken } = await import("../lib/server/auth/tokens.ts");
const me = await import("../app/api/me/route.ts");

const user = await createTestUser("RESEARCHER");
const cookie = await sessionCookie(user);
const { token } = await createToken(user, { name: "bench", scope: "read" });
const context = { params: Promise.resolve({}) };

async function time(headers: Record<string, string>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    const response = await me.GET(new Request("http://localhost/api/me", { headers }), context);
    if (response.status !== 200) throw new Error(`GET /api/me answered ${response.status}`);
    await response.text();
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}
const at = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];

await time({ cookie });
await time({ authorization: `Bearer ${token}` });
const session = await time({ cookie });
const bearer = await time({ authorization: `Bearer ${token}` });
console.log(`GET /api/me x ${requests}, in process`);
console.log(`session cookie: median ${at(session, 0.5).toFixed(3)} ms, p95 ${at(session, 0.95).toFixed(3)} ms`);
console.log(`access token:   median ${at(bearer, 0.5).toFixed(3)} ms, p95 ${at(bearer, 0.95).toFixed(3)} ms`);
console.log(`token / session (median): ${(at(bearer, 0.5) / at(session, 0.5)).toFixed(2)}`);
fs.rmSync(dataDir, { recursive: true, force: true });
