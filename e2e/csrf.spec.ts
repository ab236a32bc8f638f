import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { ADMIN, signIn } from "./session";

/**
 * Issue 19, finding 1, as an attacker would try it: a page on another port of localhost (the same
 * site, so the admin's SameSite=Lax cookie goes along) and one on 127.0.0.1 (another site) send
 * text/plain form posts, no-cors fetches and <img> GETs at the app while the admin is signed in.
 * None of them changes members, users, projects or leases.
 */
const APP = process.env.E2E_BASE_URL ?? "http://localhost:3000";

function snapshot() {
  const db = new Database(path.join(process.env.CEREAL_DATA_DIR!, "cereal.db"), { readonly: true, fileMustExist: true });
  try {
    return {
      users: db.prepare("SELECT id, email, role FROM User ORDER BY id").all(),
      members: db.prepare("SELECT projectId, userId, role FROM ProjectMember ORDER BY projectId, userId").all(),
      projects: db.prepare("SELECT id, name FROM Project ORDER BY id").all(),
      leases: db.prepare("SELECT COUNT(*) AS n FROM Lease").get(),
      jobs: db.prepare("SELECT COUNT(*) AS n FROM Job").get(),
    };
  } finally {
    db.close();
  }
}

/** The attacker's page: every forged request of the report at once. */
function attackPage(projectId: string, victimEmail: string) {
  const json = (value: object) => JSON.stringify(value).replace(/'/g, "&#39;");
  // a text/plain form posts "name=value": the name carries the JSON, the value closes a padding string
  const form = (id: string, action: string, body: object) =>
    `<form id="${id}" method="POST" action="${APP}${action}" enctype="text/plain" target="${id}-sink"><input name='${json(body).slice(0, -1)},"pad":"' value='"}'></form><iframe name="${id}-sink"></iframe>`;
  const owner = { email: victimEmail, role: "OWNER" };
  const admin = { email: "forged-admin@x.org", name: "Forged", password: "forged-password-1", role: "ADMIN" };
  return `<!doctype html><html><body>
${form("f1", `/api/projects/${projectId}/members`, owner)}
${form("f2", "/api/admin/users", admin)}
<img src="${APP}/api/projects/${projectId}/tasks/next?count=10">
<img src="${APP}/api/projects/${projectId}/label-free?measure=silhouette">
<script>
  const opts = (body) => ({ method: "POST", mode: "no-cors", credentials: "include", body });
  fetch("${APP}/api/projects/${projectId}/members", opts(${JSON.stringify(JSON.stringify(owner))}));
  fetch("${APP}/api/admin/users", opts(${JSON.stringify(JSON.stringify(admin))}));
  const upload = new FormData();
  upload.append("name", "Forged project");
  upload.append("files", new Blob(['{"name":"x"}']), "manifest.json");
  fetch("${APP}/api/projects", opts(upload));
  document.getElementById("f1").submit();
  document.getElementById("f2").submit();
</script></body></html>`;
}

let attacker: http.Server;
let attackerPort: number;
let html = "";
test.beforeAll(async () => {
  attacker = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
});
test.afterAll(() => attacker.close());

async function demoProject(page: Page) {
  const { projects } = await (await page.request.get("/api/projects")).json();
  return (projects as { id: string; name: string }[]).find((p) => p.name === "Fashion demo")!.id;
}

for (const [site, host] of [
  ["same-site (localhost, another port)", "localhost"],
  ["cross-site (127.0.0.1)", "127.0.0.1"],
] as const) {
  test(`forged requests from a ${site} page change nothing`, async ({ page }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    const projectId = await demoProject(page);
    const victim = `victim-${host}@x.org`;
    expect((await page.request.post("/api/admin/users", { data: { email: victim, name: "Victim", password: "victim-password", role: "RESEARCHER" } })).status()).toBe(200);
    const before = snapshot();

    const answers: { url: string; method: string; status: number }[] = [];
    page.on("response", (r) => {
      if (r.url().startsWith(`${APP}/api/`)) answers.push({ url: r.url().slice(APP.length), method: r.request().method(), status: r.status() });
    });
    html = attackPage(projectId, victim);
    await page.goto(`http://${host}:${attackerPort}/attack.html`);
    await expect.poll(() => answers.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(7);

    const posts = answers.filter((a) => a.method === "POST");
    expect(posts).toHaveLength(5);
    for (const post of posts) expect(post.status, post.url).toBe(403);
    const gets = answers.filter((a) => a.method === "GET");
    expect(gets.map((g) => g.status)).toEqual([405, 405]);
    expect(snapshot()).toEqual(before);
  });
}
