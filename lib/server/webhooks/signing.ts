import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Standard Webhooks signing (standardwebhooks.com): the secret is `whsec_<base64 key>`; each
 * request carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature:
 * v1,<base64 HMAC-SHA256 of "${id}.${timestamp}.${body}">`, so any Standard Webhooks library
 * verifies it.
 */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** What a receiver does: one of the space-separated signatures matches. */
export function verifyWebhook(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): boolean {
  const expected = Buffer.from(signWebhook(secret, headers.id, Number(headers.timestamp), body));
  return headers.signature.split(" ").some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
