import pino, { type Logger } from "pino";
import pretty from "pino-pretty";

/**
 * The one structured logger of a process: JSON lines on stdout, or readable lines when
 * CEREAL_LOG_FORMAT=pretty (`npm run dev` sets it). CEREAL_LOG_LEVEL chooses the level (tests run
 * silent). Kept on globalThis so Next's route bundles share one instance.
 */
const holder = globalThis as unknown as { cerealLogger?: Logger };

export function logger(): Logger {
  holder.cerealLogger ??= createLogger();
  return holder.cerealLogger;
}

export function createLogger(destination?: NodeJS.WritableStream, env: Record<string, string | undefined> = process.env): Logger {
  const options = { level: env.CEREAL_LOG_LEVEL ?? "info", base: { pid: process.pid } };
  // pino-pretty as a stream in this thread: a transport would start a worker thread, which Next's bundle cannot resolve
  if (env.CEREAL_LOG_FORMAT === "pretty") return pino(options, pretty({ colorize: true, destination: destination ?? 1, sync: true }));
  return destination ? pino(options, destination) : pino(options);
}
