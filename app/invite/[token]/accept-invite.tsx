"use client";

import { signIn } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiJson } from "@/app/components/api";
import { INPUT_CLASS } from "@/app/components/form-styles";

const primary = "w-full rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60";

export function AcceptInvite({ token, email, signedInAs }: { token: string; email: string | null; signedInAs: { name: string; email: string } | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function accept(body: Record<string, string>) {
    setPending(true);
    setError(null);
    try {
      const { accepted } = await apiJson<{ accepted: { projectId: string } }>(`/api/invites/${token}`, { method: "POST", body });
      if (!signedInAs) {
        const result = await signIn("credentials", { email: body.email, password: body.password, redirect: false });
        if (!result || result.error) {
          router.replace(`/signin?callbackUrl=${encodeURIComponent(`/projects/${accepted.projectId}`)}`);
          return;
        }
      }
      router.replace(`/projects/${accepted.projectId}`);
      router.refresh();
    } catch (e) {
      setError((e as Error).message);
      setPending(false);
    }
  }

  if (signedInAs)
    return (
      <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <p className="text-sm text-slate-700">
          Signed in as <span className="font-medium">{signedInAs.name}</span> ({signedInAs.email}).
        </p>
        {error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
        <button type="button" disabled={pending} onClick={() => accept({})} className={primary}>
          {pending ? "Joining…" : "Accept and join"}
        </button>
      </div>
    );

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = Object.fromEntries(["name", "email", "password"].map((k) => [k, String(form.get(k) ?? "")]));
    if (email) body.email = email;
    void accept(body);
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm" aria-label="Create your account">
      <label className="block">
        <span className="text-sm font-medium text-slate-700">Name</span>
        <input name="name" required autoComplete="name" className={INPUT_CLASS} />
      </label>
      <label className="block">
        <span className="text-sm font-medium text-slate-700">Email</span>
        <input name="email" type="email" required autoComplete="email" defaultValue={email ?? ""} disabled={email !== null} className={INPUT_CLASS} />
      </label>
      <label className="block">
        <span className="text-sm font-medium text-slate-700">Password</span>
        <input name="password" type="password" required minLength={8} autoComplete="new-password" className={INPUT_CLASS} />
        <span className="mt-1 block text-xs text-slate-500">At least 8 characters.</span>
      </label>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="submit" disabled={pending} className={primary}>
        {pending ? "Creating your account…" : "Create account and join"}
      </button>
      <p className="text-center text-xs text-slate-500">
        Have an account?{" "}
        <Link href={`/signin?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`} className="font-medium text-indigo-600 underline hover:text-indigo-500">
          Sign in first
        </Link>
      </p>
    </form>
  );
}
