import * as tf from "@tensorflow/tfjs";

/**
 * Chooses the fastest TF.js backend that loads here: tfjs-node-gpu > tfjs-node > wasm > cpu.
 * The native packages are optional and fail to install on machines without libtensorflow, so
 * each is tried by dynamic import and a failure just moves on to the next.
 */

/** imports a module by name; injectable so tests can simulate missing packages */
export type ModuleLoader = (name: string) => Promise<unknown>;

// a variable specifier keeps TypeScript and bundlers from resolving optional packages
const importByName: ModuleLoader = (name) => import(/* webpackIgnore: true */ name);

export interface BackendChoice {
  /** tf.getBackend() after the choice: "tensorflow" (node / node-gpu), "wasm" or "cpu" */
  readonly name: string;
  /** the package that provided it, for logs and FitReport */
  readonly source: string;
  /** why earlier candidates were skipped */
  readonly skipped: readonly string[];
}

interface Candidate {
  readonly source: string;
  readonly backend: string;
  /** undefined: the backend ships with @tensorflow/tfjs */
  readonly module?: string;
}

const CANDIDATES: readonly Candidate[] = [
  { source: "@tensorflow/tfjs-node-gpu", backend: "tensorflow", module: "@tensorflow/tfjs-node-gpu" },
  { source: "@tensorflow/tfjs-node", backend: "tensorflow", module: "@tensorflow/tfjs-node" },
  { source: "@tensorflow/tfjs-backend-wasm", backend: "wasm", module: "@tensorflow/tfjs-backend-wasm" },
  { source: "@tensorflow/tfjs (cpu)", backend: "cpu" },
];

export async function chooseBackend(
  load: ModuleLoader = importByName,
  log: (line: string) => void = (line) => console.error(line),
): Promise<BackendChoice> {
  const skipped: string[] = [];
  for (const c of CANDIDATES) {
    try {
      if (c.module) await load(c.module);
      // setBackend resolves false (or throws) when the registered backend fails to initialise
      if (!(await tf.setBackend(c.backend))) throw new Error(`setBackend("${c.backend}") returned false`);
      await tf.ready();
      const choice = { name: tf.getBackend(), source: c.source, skipped };
      const why = skipped.length ? `; skipped ${skipped.map((line) => line.split(":")[0]).join(", ")}` : "";
      log(`[models] TF.js backend: ${choice.name} (${c.source}${why})`);
      return choice;
    } catch (err) {
      const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
      skipped.push(`${c.source}: ${reason}`);
    }
  }
  throw new Error(`no TF.js backend could be initialised: ${skipped.join("; ")}`);
}

let chosen: Promise<BackendChoice> | null = null;

/** the process-wide choice, made once; CEREAL_TF_BACKEND=wasm|cpu|tensorflow forces one */
export function ensureBackend(): Promise<BackendChoice> {
  if (!chosen) {
    const forced = process.env.CEREAL_TF_BACKEND;
    chosen = forced ? forceBackend(forced) : chooseBackend();
  }
  return chosen;
}

async function forceBackend(name: string): Promise<BackendChoice> {
  const c = CANDIDATES.find((x) => x.backend === name);
  if (c?.module) await importByName(c.module);
  if (!(await tf.setBackend(name))) throw new Error(`CEREAL_TF_BACKEND=${name} could not be initialised`);
  await tf.ready();
  return { name: tf.getBackend(), source: c?.source ?? name, skipped: ["forced by CEREAL_TF_BACKEND"] };
}
