import { forbidden, notFound } from "next/navigation";
import { AppError } from "@/lib/server/errors";

/** Turns a service's 403/404 into Next's forbidden and not-found pages. */
export function pageError(error: unknown): never {
  if (error instanceof AppError && error.status === 403) forbidden();
  if (error instanceof AppError && error.status === 404) notFound();
  throw error;
}
