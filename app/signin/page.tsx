import type { Metadata } from "next";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  // Only same-site paths: never bounce a user to another origin after sign-in.
  const returnTo = callbackUrl?.startsWith("/") && !callbackUrl.startsWith("//") ? callbackUrl : "/projects";
  return (
    <main className="flex min-h-screen items-center justify-center px-6">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <div className="mx-auto flex h-11 w-11 items-center justify-center rounded-xl bg-indigo-600 text-lg font-bold text-white">C</div>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight">Sign in to Cereal Studio</h1>
          <p className="mt-1 text-sm text-slate-600">Few-sample clustering evaluation</p>
        </div>
        <SignInForm returnTo={returnTo} />
      </div>
    </main>
  );
}
