import { NextResponse, type NextRequest } from "next/server";

/** Tells server components which page was asked for, so sign-in can return to it. */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set("x-pathname", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/((?!api|_next|favicon.ico).*)"] };
