import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { authSecret } from "./session";
import { signInWithPassword } from "./users";

/** next-auth: email + password, JWT sessions whose token carries the user id and session version. */
export function authOptions(): NextAuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          // the connection's address: the app server (app-server.ts) replaces whatever the client sent
          const ip = (req?.headers?.["x-forwarded-for"] as string | undefined)?.trim() || null;
          const user = await signInWithPassword(credentials?.email ?? "", credentials?.password ?? "", ip);
          return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.uid = user.id;
          token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
        }
        return token;
      },
    },
  };
}
