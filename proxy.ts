import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy } from "@/lib/server/http/content-security-policy";

/**
 * Every page gets a Content-Security-Policy with a fresh nonce (Next reads it from the request
 * header and puts it on its scripts), and tells server components which page was asked for, so
 * sign-in can return to it.
 */
export function proxy(request: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-pathname", request.nextUrl.pathname + request.nextUrl.search);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  return response;
}

export const config = { matcher: ["/((?!api|_next|favicon.ico).*)"] };
