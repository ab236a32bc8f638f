import type { Metadata } from "next";
import Link from "next/link";
import { listInvites } from "@/lib/server/projects/invites";
import { listMembers } from "@/lib/server/projects/members";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { getProject } from "@/lib/server/projects/projects";
import { pageError } from "../page-error";
import { MembersAdmin } from "./members-admin";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const user = await requirePageUser(`/projects/${projectId}/members`);
  const members = await listMembers(user, projectId).catch(pageError);
  const invites = await listInvites(user, projectId);
  const project = await getProject(user, projectId);
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/projects/${projectId}`} className="text-sm text-slate-500 hover:text-slate-700">
          ← {project.name}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Members</h1>
        <p className="mt-1 text-sm text-slate-600">
          Add people who have an account, or send an invite link: the invitee sets a password and joins as an annotator.{" "}
          <Link href={`/projects/${projectId}/settings`} className="text-indigo-600 underline hover:text-indigo-500">
            Settings →
          </Link>
        </p>
      </div>
      <MembersAdmin
        projectId={projectId}
        currentUserId={user.id}
        initialMembers={members.map((m) => ({ ...m, since: m.since.toISOString() }))}
        initialInvites={invites.map((i) => ({ ...i, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() }))}
      />
    </div>
  );
}
