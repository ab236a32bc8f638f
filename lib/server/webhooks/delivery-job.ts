import http from "node:http";
import https from "node:https";
import { z } from "zod";
import { db } from "../db";
import { defineJob } from "../jobs/definition";
import { assertLiteralTargetAllowed, guardedLookup } from "./safe-target";
import { signWebhook } from "./signing";

/**
 * One webhook delivery as a job: POST the signed body once; a 2xx marks it delivered, anything
 * else (another status, a redirect, which is never followed, a refused address, a timeout) is a
 * failed attempt that the queue retries with backoff (2 s, 4 s, 6 s, 8 s). Every attempt is
 * logged with its status, latency and the start of the response. A short network call, so it
 * runs in the rounds lane rather than behind simulations.
 */
const ATTEMPT_TIMEOUT_MS = 10_000;
const EXCERPT_CHARS = 500;

export const webhookJob = defineJob({
  kind: "webhook",
  payload: z.object({ deliveryId: z.string().min(1), projectId: z.string().nullable() }),
  result: z.object({ statusCode: z.number().int().nullable() }),
  lane: "rounds",
  onePerProject: false,
  projectOf: (p) => p.projectId,
  longestRunMs: 60_000,
  retry: { maxAttempts: 5, backoffMs: 2_000 },
  async run({ payload }) {
    return attemptDelivery(payload.deliveryId);
  },
  async onFailed({ deliveryId }) {
    await db().webhookDelivery.updateMany({ where: { id: deliveryId }, data: { status: "failed" } });
  },
});

interface Answer {
  statusCode: number | null;
  excerpt: string;
}

export async function attemptDelivery(deliveryId: string, now = new Date()): Promise<{ statusCode: number | null }> {
  const delivery = await db().webhookDelivery.findUnique({ where: { id: deliveryId }, include: { webhook: true } });
  // the webhook was removed (its deliveries with it): nothing left to send
  if (!delivery) return { statusCode: null };
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": "CerealStudio-Webhooks/1",
    "webhook-id": delivery.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(delivery.webhook.secret, delivery.id, timestamp, delivery.body),
  };
  const started = performance.now();
  const answer = await post(new URL(delivery.webhook.url), headers, delivery.body).catch((error: Error): Answer => ({ statusCode: null, excerpt: error.message }));
  const latencyMs = Math.round(performance.now() - started);
  await db().webhookAttempt.create({ data: { deliveryId, statusCode: answer.statusCode, latencyMs, excerpt: answer.excerpt.slice(0, EXCERPT_CHARS) } });
  const ok = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
  if (!ok) throw new Error(answer.statusCode === null ? `Not delivered: ${answer.excerpt}` : `The receiver answered ${answer.statusCode}.`);
  await db().webhookDelivery.update({ where: { id: deliveryId }, data: { status: "delivered" } });
  return { statusCode: answer.statusCode };
}

/** One POST, no redirects followed, the address checked at connect time. */
async function post(url: URL, headers: Record<string, string>, body: string): Promise<Answer> {
  assertLiteralTargetAllowed(url);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, lookup: guardedLookup, timeout: ATTEMPT_TIMEOUT_MS, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (text.length < EXCERPT_CHARS) text += chunk;
      });
      response.on("end", () => resolve({ statusCode: response.statusCode ?? null, excerpt: text }));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`)));
    request.on("error", reject);
    request.end(body);
  });
}
