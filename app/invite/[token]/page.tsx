import type { Metadata } from "next";
import Link from "next/link";
import { AppError } from "@/lib/server/errors";
import { describeInvite } from "@/lib/server/projects/invites";
import { currentPageUser } from "@/lib/server/auth/page-session";
import { AcceptInvite } from "./accept-invite";

export const metadata: Metadata = { title: "Invitation" };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const user = await currentPageUser();
  const invite = await describeInvite(token).catch((error: unknown) => {
    if (error instanceof AppError) return { error: error.message };
    throw error;
  });
  return (
    <main className="flex min-h-screen items-center justify-center px-6">
      <div className="w-full max-w-md">
        <div className="mb-8 text-center">
          <div className="mx-auto flex h-11 w-11 items-center justify-center rounded-xl bg-indigo-600 text-lg font-bold text-white">C</div>
          {"error" in invite ? (
            <h1 className="mt-4 text-2xl font-semibold tracking-tight">This invite cannot be used</h1>
          ) : (
            <>
              <h1 className="mt-4 text-2xl font-semibold tracking-tight">Join {invite.projectName}</h1>
              <p className="mt-1 text-sm text-slate-600">You are invited to label items in this Cereal Studio project.</p>
            </>
          )}
        </div>
        {"error" in invite ? (
          <div className="rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
            <p role="alert" className="text-sm text-slate-700">
              {invite.error}
            </p>
            <Link href="/projects" className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500">
              Go to your projects
            </Link>
          </div>
        ) : (
          <AcceptInvite token={token} email={invite.email} signedInAs={user ? { name: user.name, email: user.email } : null} />
        )}
      </div>
    </main>
  );
}
