import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/server/auth/auth-options";
import { notFound } from "@/lib/server/errors";
import { readBodyText } from "@/lib/server/http/request-body";
import { route } from "@/lib/server/http/route";

// next-auth's own endpoints (csrf, session, sign-in callback) are public by nature; they keep
// next-auth's CSRF token, and route() adds the same-origin check and the body cap before them.
const ACTIONS = { GET: ["providers", "session", "csrf", "signin", "signout", "callback", "verify-request", "error"], POST: ["signin", "signout", "callback", "_log", "session"] };

async function nextAuth(request: Request, params: Record<string, string | string[]>, method: keyof typeof ACTIONS) {
  const action = [params.nextauth ?? []].flat()[0];
  // next-auth answers an unknown action in plain text; the API answers JSON everywhere.
  if (!ACTIONS[method].includes(action)) throw notFound(`next-auth has no ${method} /api/auth/${action ?? ""}.`);
  const capped = method === "POST" ? new NextRequest(request.url, { method, headers: request.headers, body: await readBodyText(request) }) : request;
  return NextAuth(authOptions())(capped as never, { params: Promise.resolve(params) } as never) as Promise<Response>;
}

export const GET = route("public", ({ request, params }) => nextAuth(request, params, "GET"));
export const POST = route("public", ({ request, params }) => nextAuth(request, params, "POST"), { body: "application/x-www-form-urlencoded" });
