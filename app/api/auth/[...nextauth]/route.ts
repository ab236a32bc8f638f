import NextAuth from "next-auth";
import { authOptions } from "@/lib/server/auth-options";
import { route } from "@/lib/server/route";

// next-auth's own endpoints (csrf, session, sign-in callback) are public by nature.
const nextAuth = (request: Request, params: Record<string, string | string[]>) =>
  NextAuth(authOptions())(request as never, { params: Promise.resolve(params) } as never) as Promise<Response>;

export const GET = route("public", ({ request, params }) => nextAuth(request, params));
export const POST = route("public", ({ request, params }) => nextAuth(request, params));
