import { z } from "zod";
import { isoDateTime } from "./wire";

/** Responses of the webhook routes. */
export const webhookResponse = z.strictObject({
  webhook: z
    .strictObject({
      id: z.string(),
      url: z.string(),
      secret: z.string().describe("whsec_…: verify the webhook-signature header with it (Standard Webhooks)"),
      createdAt: isoDateTime,
      updatedAt: isoDateTime,
    })
    .nullable(),
  deliveries: z
    .array(
      z.strictObject({
        id: z.string().describe("the webhook-id header"),
        event: z.enum(["round.completed", "round.failed", "stop_rule.met", "import.completed", "import.failed"]),
        status: z.enum(["pending", "delivered", "failed"]),
        createdAt: isoDateTime,
        attempts: z.array(
          z.strictObject({
            statusCode: z.number().int().nullable().describe("null when no answer came (refused address, timeout)"),
            latencyMs: z.number().int(),
            excerpt: z.string().describe("the start of the answer, or the error"),
            createdAt: isoDateTime,
          }),
        ),
      }),
    )
    .describe("the latest 20, newest first"),
});
export const redeliveryQueued = z.strictObject({ id: z.string(), status: z.literal("pending") });
