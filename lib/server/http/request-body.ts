import { payloadTooLarge, unsupportedMediaType } from "../errors";

/**
 * Request bodies, checked before they are parsed: a body must declare the type its route reads
 * (415 otherwise), and a JSON body is read as a stream that stops at a cap (413), so a flood of
 * bytes is refused without being buffered or parsed.
 */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export type BodyType = "application/json" | "multipart/form-data" | "application/x-www-form-urlencoded";

export function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/** A body is there when its length is declared above 0, or sent chunked without a length. */
export function carriesBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return Number(length) > 0;
  return request.headers.has("transfer-encoding") || request.body !== null;
}

export function assertBodyType(request: Request, accepted: BodyType): void {
  if (!carriesBody(request) || mediaType(request) === accepted) return;
  const sent = mediaType(request) || "no Content-Type";
  throw unsupportedMediaType(`This endpoint reads ${accepted} bodies; the request sent ${sent}.`);
}

function tooLarge(limitBytes: number) {
  return payloadTooLarge(`The request body is larger than ${Math.round(limitBytes / 1024)} kB.`);
}

/** The body as text, refused with 413 as soon as more than `limitBytes` arrive (or are declared). */
export async function readBodyText(request: Request, limitBytes = JSON_BODY_LIMIT_BYTES): Promise<string> {
  if (Number(request.headers.get("content-length") ?? 0) > limitBytes) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge(limitBytes);
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limitBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
