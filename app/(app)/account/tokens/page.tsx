import type { Metadata } from "next";
import { requirePageUser } from "@/lib/server/auth/page-session";
import { listTokens } from "@/lib/server/auth/tokens";
import { TokenAdmin, type TokenRow } from "./token-admin";
import { userWebhook } from "@/lib/server/webhooks/webhooks";
import { WebhookSettings, type WebhookView } from "@/app/components/webhook-settings";

export const metadata: Metadata = { title: "Access tokens" };

export default async function TokensPage() {
  const user = await requirePageUser("/account/tokens");
  const tokens = await listTokens(user);
  const webhook = await userWebhook(user);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const rows: TokenRow[] = tokens.map((t) => ({ ...t, createdAt: t.createdAt.toISOString(), expiresAt: iso(t.expiresAt), lastUsedAt: iso(t.lastUsedAt), revokedAt: iso(t.revokedAt) }));
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">Access tokens</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Scripts send a token as <code>Authorization: Bearer …</code> and act as you, with your rights at each request. <strong>read</strong> only reads;{" "}
        <strong>label</strong> also takes and answers tasks; <strong>write</strong> does everything you may except managing tokens and users. A token is shown once,
        when it is made.
      </p>
      <TokenAdmin initialTokens={rows} />
      <div className="mt-8">
        <WebhookSettings
          base="/api/me/webhook"
          events={
            <>
              <code>import.completed</code> and <code>import.failed</code> for the bundles you import (a project&apos;s own events are on its settings page)
            </>
          }
          initial={JSON.parse(JSON.stringify(webhook)) as WebhookView}
        />
      </div>
    </div>
  );
}
