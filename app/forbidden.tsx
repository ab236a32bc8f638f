import Link from "next/link";

export default function Forbidden() {
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <p className="text-sm font-semibold text-indigo-600">403</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">You do not have access to this page</h1>
      <p className="mt-3 text-slate-600">Ask the project&apos;s owner to add you as a member, or sign in with another account.</p>
      <Link href="/projects" className="mt-8 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
        Back to your projects
      </Link>
    </main>
  );
}
