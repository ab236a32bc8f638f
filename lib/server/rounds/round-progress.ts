import { z } from "zod";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * A round's training progress: stored on the job every 16 steps (which also renews the lease and
 * notices a cancelled job), and a cancelled round stops at its next training step rather than
 * after the whole fit (the trainers call this every step and let a throw end the fit).
 */
export function trainingProgress(job: { signal: AbortSignal; progress: (value: Prisma.InputJsonValue) => Promise<boolean> }) {
  return ({ step, total }: { step: number; total: number }) => {
    if (job.signal.aborted) throw new Error("The round was cancelled.");
    if (step % 16 === 0 || step === total) void job.progress({ phase: "training", step, total });
  };
}

/** What a round's job reports as its progress: the phase, and the training step while it trains. */
export const roundProgress = z.object({ phase: z.string().optional(), step: z.number().optional(), total: z.number().optional() });
export type RoundProgress = z.infer<typeof roundProgress>;
