import { z } from "zod";
import { METRIC_KEYS } from "@/lib/metrics";

/**
 * Building blocks of the response schemas, as the JSON on the wire has them: dates are ISO
 * strings (Response.json writes a Date with toISOString), objects are strict so that a field a
 * service adds without documenting it fails openapi.test.ts.
 */
export const isoDateTime = z.iso.datetime().describe("an ISO 8601 date and time (UTC)");

export const ERROR_CODES = ["bad_request", "unauthenticated", "forbidden", "not_found", "conflict", "payload_too_large", "unsupported_media_type", "too_many_requests", "internal"] as const;

/** Every error any route answers: route.ts errorResponse */
export const errorBody = z.strictObject({
  error: z.strictObject({
    code: z.enum(ERROR_CODES),
    message: z.string().describe("what went wrong and how to fix it, for a person"),
  }),
});

export const okBody = z.strictObject({ ok: z.literal(true) });

export const metricKey = z.enum(METRIC_KEYS);

export const itemView = z.strictObject({
  index: z.number().int(),
  externalId: z.string(),
  text: z.string().nullable(),
  imageUrl: z.string().nullable().describe("the item's image route, when it has an image"),
});

/** one estimate with its interval and P(best) */
export const estimatePoint = z.strictObject({
  value: z.number(),
  lo: z.number().nullable(),
  hi: z.number().nullable(),
  pBest: z.number().nullable().describe("the probability that this clustering is the best on this metric"),
});

export const labelRow = z.strictObject({
  id: z.string(),
  taskId: z.string(),
  kind: z.enum(["label", "skip", "unsure"]),
  classIndex: z.number().int().nullable(),
  answer: z.enum(["same", "different"]).nullable(),
  withdrawn: z.boolean(),
  durationMs: z.number().int().nullable().describe("how long the answer took on the label page (visible time, gaps over 60 s cut); null when not measured"),
  verifyAnswers: z.number().int().nullable().describe("how many \"same class?\" answers the label took, given one class at a time (labelBy verify); null when the class was picked from the list"),
  createdAt: isoDateTime,
});

export const jsonObject = z.record(z.string(), z.unknown());
