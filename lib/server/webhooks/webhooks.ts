import { z } from "zod";
import { db } from "../db";
import { notFound } from "../errors";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";
import { enqueueJob } from "../jobs/queue";
import { webhookJob } from "./delivery-job";
import { newWebhookSecret } from "./signing";

/**
 * Webhook settings: a project's (its owners: round and stop-rule events) and a user's own
 * (import events). Setting a URL keeps the secret unless asked to rotate it; the latest
 * deliveries come with their attempts, and any delivery can be sent again.
 */
export const webhookInput = z.object({
  url: z
    .url({ protocol: /^https?$/, error: "Give the receiver's http:// or https:// URL." })
    .max(2000, "Use a URL of at most 2000 characters."),
  rotateSecret: z.boolean().default(false),
});

const DELIVERIES_SHOWN = 20;

type Owner = { projectId: string } | { userId: string };

async function webhookView(owner: Owner) {
  const webhook = await db().webhook.findUnique({ where: owner as { projectId: string } });
  if (!webhook) return { webhook: null, deliveries: [] };
  const deliveries = await db().webhookDelivery.findMany({
    where: { webhookId: webhook.id },
    orderBy: { createdAt: "desc" },
    take: DELIVERIES_SHOWN,
    select: { id: true, event: true, status: true, createdAt: true, attempts: { orderBy: { createdAt: "asc" }, select: { statusCode: true, latencyMs: true, excerpt: true, createdAt: true } } },
  });
  return { webhook: { id: webhook.id, url: webhook.url, secret: webhook.secret, createdAt: webhook.createdAt, updatedAt: webhook.updatedAt }, deliveries };
}

async function saveWebhook(owner: Owner, input: z.infer<typeof webhookInput>) {
  const existing = await db().webhook.findUnique({ where: owner as { projectId: string } });
  if (existing) await db().webhook.update({ where: { id: existing.id }, data: { url: input.url, ...(input.rotateSecret ? { secret: newWebhookSecret() } : {}) } });
  else await db().webhook.create({ data: { ...owner, url: input.url, secret: newWebhookSecret() } });
  return webhookView(owner);
}

export async function projectWebhook(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  return webhookView({ projectId });
}
export async function setProjectWebhook(user: SessionUser, projectId: string, input: z.infer<typeof webhookInput>) {
  await requireProjectRole(user, projectId, "OWNER");
  return saveWebhook({ projectId }, input);
}
export async function removeProjectWebhook(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  await db().webhook.deleteMany({ where: { projectId } });
  return { ok: true as const };
}

export const userWebhook = (user: SessionUser) => webhookView({ userId: user.id });
export const setUserWebhook = (user: SessionUser, input: z.infer<typeof webhookInput>) => saveWebhook({ userId: user.id }, input);
export async function removeUserWebhook(user: SessionUser) {
  await db().webhook.deleteMany({ where: { userId: user.id } });
  return { ok: true as const };
}

/** Sends a delivery again (same webhook-id and body, a new timestamp and signature). */
export async function redeliver(user: SessionUser, deliveryId: string) {
  const delivery = await db().webhookDelivery.findUnique({ where: { id: deliveryId }, include: { webhook: { select: { projectId: true, userId: true } } } });
  if (!delivery) throw notFound("No webhook delivery with this id.");
  const { projectId, userId } = delivery.webhook;
  if (projectId) await requireProjectRole(user, projectId, "OWNER");
  else if (userId !== user.id) throw notFound("No webhook delivery with this id.");
  await db().webhookDelivery.update({ where: { id: deliveryId }, data: { status: "pending" } });
  await enqueueJob(webhookJob, { deliveryId, projectId });
  return { id: deliveryId, status: "pending" as const };
}
