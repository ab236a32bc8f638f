import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { SESSION_COOKIES, userFromSessionToken, type SessionUser } from "./session";

/** The signed-in user of a page request, or null (public pages such as an invite). */
export async function currentPageUser(): Promise<SessionUser | null> {
  const store = await cookies();
  const token = SESSION_COOKIES.map((name) => store.get(name)?.value).find(Boolean) ?? null;
  return userFromSessionToken(token);
}

/** The signed-in user of a page request, or a redirect to the sign-in page. */
export async function requirePageUser(returnTo: string): Promise<SessionUser> {
  const user = await currentPageUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  return user;
}
