import fs from "node:fs";
import path from "node:path";

/** Test support: every route handler file under app/, as the route-enumerating tests walk them. */
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

export function routeFiles(dir = path.join(process.cwd(), "app")): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });
}

/** "api/projects/[projectId]/labels" for app/api/projects/[projectId]/labels/route.ts */
export function routeId(file: string): string {
  return path.relative(path.join(process.cwd(), "app"), path.dirname(file)).split(path.sep).join("/");
}

/** The dynamic segments of a route with values that parse (an index, an action, an export kind), and its URL. */
export function routeParams(id: string, values: Record<string, string> = {}) {
  const params: Record<string, string> = Object.fromEntries(
    [...id.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((m) => [m[1], m[1] === "index" ? "0" : m[1] === "action" ? "retry" : m[1] === "kind" ? "labels" : m[1] === "nextauth" ? "signout" : "placeholder"]),
  );
  Object.assign(params, values);
  const url = "/" + id.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_m, name: string) => params[name]);
  return { params, url };
}
