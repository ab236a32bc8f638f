/**
 * `node --import tsx bench/body-flood.ts [--url http://localhost:3000] [--mb 10]`: how much an
 * unauthenticated body flood delays everyone else (issue 19, finding 2). Against a running app
 * (`npm start`), it times GET /api/auth/csrf alone, then while a signed-out client posts a
 * nested array of --mb MB to /api/invites/<bad token> (JSON) and to next-auth's sign-in (form),
 * and prints the medians, the ratio and how each flood was answered.
 */
import { performance } from "node:perf_hooks";

const arg = (name: string, fallback: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const url = arg("--url", "http://localhost:3000");
const mb = Number(arg("--mb", "10"));
const flood = "[".repeat(mb * 1024 * 1024);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timeCsrf(times: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await (await fetch(`${url}/api/auth/csrf`)).text();
    out.push(performance.now() - t);
  }
  return out;
}

async function underFlood(path: string, contentType: string) {
  const start = performance.now();
  const floodAnswer = fetch(`${url}${path}`, { method: "POST", headers: { "content-type": contentType }, body: flood }).then(
    async (r) => ({ status: r.status, ms: performance.now() - start, body: (await r.text()).slice(0, 120) }),
    (e: Error) => ({ status: 0, ms: performance.now() - start, body: e.message }),
  );
  await new Promise((r) => setTimeout(r, 20));
  const during = await timeCsrf(5);
  return { ...(await floodAnswer), csrfMs: median(during) };
}

await timeCsrf(3); // warm up
const baseline = median(await timeCsrf(15));
console.log(`GET /api/auth/csrf alone: median ${baseline.toFixed(1)} ms`);
for (const [path, contentType] of [
  ["/api/invites/not-a-token", "application/json"],
  ["/api/auth/callback/credentials", "application/x-www-form-urlencoded"],
]) {
  const r = await underFlood(path, contentType);
  console.log(`${mb} MB nested array (${contentType}) to ${path}: answered ${r.status} after ${r.ms.toFixed(0)} ms (${r.body}); GET /api/auth/csrf meanwhile: median ${r.csrfMs.toFixed(1)} ms (${(r.csrfMs / baseline).toFixed(1)}x)`);
}
