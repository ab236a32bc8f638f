/**
 * Errors a service throws on purpose. The route wrapper turns each into
 * `{ error: { code, message } }` with its status; the message tells a person what to do.
 */
export type ErrorCode =
  | "bad_request"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "too_many_requests";

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
};

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

export const badRequest = (message: string) => new AppError("bad_request", message);
export const unauthenticated = (message = "Sign in to continue.") => new AppError("unauthenticated", message);
export const forbidden = (message = "You do not have access to this.") => new AppError("forbidden", message);
export const notFound = (message: string) => new AppError("not_found", message);
export const conflict = (message: string) => new AppError("conflict", message);
export const payloadTooLarge = (message: string) => new AppError("payload_too_large", message);
export const unsupportedMediaType = (message: string) => new AppError("unsupported_media_type", message);
