import type { Inputs } from "./inputs";
import type { Mlp } from "./network";

/**
 * What both TF.js surrogates (FixMatch classes, MCL pairwise ids) hold: the embeddings as model
 * inputs, the network, the backend it runs on, and the rule that a disposed one is never used.
 */
export abstract class MlpModel {
  private disposed = false;

  protected constructor(
    protected readonly x: Inputs,
    protected readonly mlp: Mlp,
    protected readonly backend: string,
  ) {}

  protected assertLive(): void {
    if (this.disposed) throw new Error("surrogate was disposed");
  }

  /** frees the network's weights; idempotent */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.mlp.dispose();
  }
}
