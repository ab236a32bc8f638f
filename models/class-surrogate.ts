import type {
  EmbeddingMatrix,
  FitOptions,
  FitProgress,
  FitReport,
  LabeledRows,
  Surrogate,
  SurrogateFactory,
} from "@/lib/cereal/method/surrogate";
import { ensureBackend } from "./backend";
import { trainFixMatch, type FixMatchOptions } from "./fixmatch";
import { MlpModel } from "./surrogate-model";
import { Mlp, type MlpConfig } from "./network";
import { Rng } from "./trainer-random";
import { Inputs } from "./inputs";
import { predictSoftmax } from "./predict";
import { trainSupervised, type SupervisedOptions } from "./supervised";

/** FitReport plus the two terms of the FixMatch loss (null when supervised) */
export interface MlpFitReport extends FitReport {
  readonly labeledLoss: number | null;
  readonly unlabeledLoss: number | null;
}


export interface MlpSurrogateConfig {
  readonly hidden?: readonly number[];
  readonly dropout?: number;
  /** overrides of the FixMatch hyper-parameters (steps and threshold come from FitOptions) */
  readonly fixmatch?: Omit<FixMatchOptions, "seed" | "steps" | "threshold" | "onStep">;
  readonly supervised?: Omit<SupervisedOptions, "seed" | "onStep">;
}

/** The TF.js MLP surrogate: it holds the embeddings with their standardization for its lifetime (inputs.ts; rows standardized as batches are built). */
export class MlpSurrogate extends MlpModel implements Surrogate {
  private constructor(
    x: Inputs,
    mlp: Mlp,
    backend: string,
    private readonly config: MlpSurrogateConfig,
  ) {
    super(x, mlp, backend);
  }

  static async create(
    embeddings: EmbeddingMatrix,
    numClasses: number,
    config: MlpSurrogateConfig = {},
  ): Promise<MlpSurrogate> {
    if (!(numClasses >= 2)) throw new Error(`numClasses must be >= 2, got ${numClasses}`);
    const choice = await ensureBackend();
    const x = Inputs.fromEmbeddings(embeddings);
    const mlpConfig: MlpConfig = { inputDim: embeddings.d, numClasses, hidden: config.hidden, dropout: config.dropout };
    return new MlpSurrogate(x, new Mlp(mlpConfig, 0), choice.name, config);
  }

  async fit(
    labeled: LabeledRows,
    unlabeled: Int32Array,
    options: FitOptions,
    onProgress?: (progress: FitProgress) => void,
  ): Promise<MlpFitReport> {
    this.assertLive();
    if (labeled.rows.length !== labeled.labels.length) throw new Error("labeled rows and labels differ in length");
    for (const c of labeled.labels) {
      if (c < 0 || c >= this.mlp.numClasses) throw new Error(`label ${c} outside 0..${this.mlp.numClasses - 1}`);
    }
    const started = performance.now();
    if (options.initialWeights) this.mlp.setTheta(options.initialWeights);
    else this.mlp.reset(options.seed);
    const onStep = onProgress ? (step: number, total: number) => onProgress({ step, total }) : undefined;
    // FixMatch needs both kinds of rows; without unlabeled rows (everything labeled) it is supervised
    if (options.fixmatch && labeled.rows.length > 0 && unlabeled.length > 0) {
      const r = await trainFixMatch(this.mlp, this.x, labeled, unlabeled, {
        ...this.config.fixmatch,
        seed: options.seed,
        steps: options.steps,
        threshold: options.threshold,
        onStep,
      });
      return {
        backend: this.backend,
        trainSeconds: (performance.now() - started) / 1000,
        steps: r.steps,
        maskRate: r.maskRate,
        finalLoss: r.finalLoss,
        labeledLoss: r.labeledLoss,
        unlabeledLoss: r.unlabeledLoss,
      };
    }
    const r = await trainSupervised(this.mlp, this.x, labeled, { ...this.config.supervised, seed: options.seed, onStep });
    return {
      backend: this.backend,
      trainSeconds: (performance.now() - started) / 1000,
      steps: r.steps,
      maskRate: null,
      finalLoss: r.finalLoss,
      labeledLoss: null,
      unlabeledLoss: null,
    };
  }

  weights(): Float32Array {
    this.assertLive();
    return Float32Array.from(this.mlp.theta.dataSync());
  }

  async predictProba(rows: Int32Array): Promise<Float32Array> {
    this.assertLive();
    return this.predict(rows, null);
  }

  async predictProbaMc(rows: Int32Array, passes: number, seed: number): Promise<Float32Array> {
    this.assertLive();
    const k = this.mlp.numClasses;
    const out = new Float32Array(passes * rows.length * k);
    const rng = new Rng(seed ^ 0x3c3c);
    for (let pass = 0; pass < passes; pass++) {
      out.set(await this.predict(rows, rng), pass * rows.length * k);
    }
    return out;
  }

  /** softmax outputs in chunks; rng given: dropout active (MC dropout), else evaluation mode */
  private predict(rows: Int32Array, rng: Rng | null): Promise<Float32Array> {
    return predictSoftmax(this.mlp, this.x, rows, rng);
  }
}

/** A SurrogateFactory with other widths, dropout or trainer hyper-parameters than the paper's. */
export function mlpSurrogateFactory(config: MlpSurrogateConfig): SurrogateFactory {
  return (embeddings, numClasses) => MlpSurrogate.create(embeddings, numClasses, config);
}

/** SurrogateFactory for lib/cereal and bin/cereal.ts: the paper's MLP with default settings */
export const createMlpSurrogate: SurrogateFactory = mlpSurrogateFactory({});
