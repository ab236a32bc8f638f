import { ESTIMATOR_SUMMARIES } from "@/lib/cereal/method/estimator-summaries";
import { RESIDUAL_MIN_ACCURACY_PERCENT } from "@/lib/cereal/method/surrogate-health";
import { latexEscape } from "./latex";
import { REFERENCES, type ReferenceName } from "./references";

/**
 * The methods paragraph of a report, written from the configuration the rounds ran with, with the
 * references it cites (\cite keys in the LaTeX form, author-year in the plain one).
 */
export interface MethodsConfig {
  readonly mode: "clusterwise" | "pairwise";
  readonly n: number;
  readonly classes: number;
  readonly clusterings: number;
  readonly metrics: readonly string[];
  readonly acquisition: string;
  readonly design: string;
  readonly estimator: string;
  readonly fixmatch: boolean;
  readonly fixmatchSteps: number;
  /** steps of a round that trains on from the previous round's weights; null: every round from scratch */
  readonly fixmatchWarmSteps: number | null;
  /** a round scored by the predicted residual instead where the earlier models read calibrated within this gap; null: never */
  readonly residualWhenCalibrated: number | null;
  readonly seedSize: number;
  readonly batchSize: number;
  readonly budget: number;
  readonly overlap: number;
  /** finished rounds and the labels the latest used */
  readonly rounds: number;
  readonly labels: number;
  readonly annotators: number;
  readonly agreement: { readonly method: "cohen" | "krippendorff"; readonly value: number | null; readonly units: number } | null;
  readonly level: number;
  readonly seed: number;
  readonly codeVersion: string | null;
  /** pairwise: the surrogate's fits per round, whose estimates a round averages */
  readonly pairwiseFits: number;
  /** the label-free measure reported beside the estimates, if any */
  readonly labelFree: string | null;
}

const ACQUISITION_TEXT: Record<string, string> = {
  random: "uniformly at random",
  maxentropy: "by the surrogate's predictive entropy (MaxEntropy)",
  bald: "by BALD (mutual information under MC dropout)",
  crossentropy: "by the cross-entropy between the surrogate and the clusterings (CrossEntropy)",
  hardnmi: "by the Hard NMI acquisition function",
  softnmi: "by the Soft NMI acquisition function",
  residual: "in proportion to the standard deviation of the surrogate's predicted residual (active inference)",
};

const DESIGN_TEXT: Record<string, string> = {
  uniform: "uniformly",
  "top-score": "greedily (the highest scores)",
  proportional: "with probability proportional to the score, so every label carries a known inclusion probability",
};

/** the clause for a round that scores by the predicted residual where the earlier models read calibrated */
const residualSwitch = (gap: number | null) =>
  gap === null
    ? ""
    : ` (or, in a round whose earlier surrogates, measured on the batches drawn since, were at least ${RESIDUAL_MIN_ACCURACY_PERCENT}% right and calibrated within ${gap} between accuracy and confidence, ${ACQUISITION_TEXT.residual})`;

const usesPpi = (estimator: string) => estimator.startsWith("ppi") || estimator === "guarded";

/** The references a configuration's paragraph cites, in citation order. */
export function methodsReferences(config: MethodsConfig): ReferenceName[] {
  const refs: ReferenceName[] = ["cereal"];
  if (config.fixmatch && config.mode === "clusterwise") refs.push("fixmatch");
  if (config.mode === "pairwise") refs.push("mcl");
  if (config.mode === "clusterwise" && usesPpi(config.estimator)) refs.push("ppi", "ppiPlusPlus");
  if (config.labelFree) refs.push("ace");
  return refs;
}

export type CiteStyle = "latex" | "text";

const AUTHOR_YEAR: Record<ReferenceName, string> = {
  cereal: "Nayak et al., 2022",
  fixmatch: "Sohn et al., 2020",
  ppi: "Angelopoulos et al., 2023",
  ppiPlusPlus: "Angelopoulos, Duchi & Zrnic, 2023",
  mcl: "Hsu et al., 2019",
  ace: "Wang & Ye, 2024",
};

const list = (items: readonly string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);
const count = (n: number) => n.toLocaleString("en");

export function methodsParagraph(config: MethodsConfig, style: CiteStyle): string {
  // citations are placeholders until the text is escaped, so their LaTeX survives it
  const cites: string[] = [];
  const cite = (...names: ReferenceName[]) => {
    cites.push(style === "latex" ? `~\\cite{${names.map((n) => REFERENCES[n].key).join(",")}}` : ` (${names.map((n) => AUTHOR_YEAR[n]).join("; ")})`);
    return `\u0000${cites.length - 1}\u0000`;
  };
  const pct = `${Math.round(config.level * 100)}%`;
  const unit = config.mode === "pairwise" ? "pairs" : "items";
  const sentences: string[] = [];
  sentences.push(
    `We estimated the ${list(config.metrics)} of ${config.clusterings} clustering${config.clusterings === 1 ? "" : "s"} of ${count(config.n)} items from few human labels with Cereal${cite("cereal")}.`,
  );
  sentences.push(
    config.mode === "pairwise"
      ? `Annotators answered whether two items belong to the same class; a seed batch of ${config.seedSize} pairs was drawn uniformly and every later batch of ${config.batchSize} pairs ${ACQUISITION_TEXT[config.acquisition] ?? config.acquisition}.`
      : `Annotators assigned items to ${config.classes} reference classes; a seed batch of ${config.seedSize} items was drawn uniformly and every later batch of ${config.batchSize} items was scored ${ACQUISITION_TEXT[config.acquisition] ?? config.acquisition}${residualSwitch(config.residualWhenCalibrated)} and drawn ${DESIGN_TEXT[config.design] ?? config.design}.`,
  );
  sentences.push(
    config.mode === "pairwise"
      ? config.pairwiseFits > 1
        ? `After each batch a surrogate classifier on the item embeddings was trained from scratch on the pairwise answers with the meta classification likelihood${cite("mcl")}, ${config.pairwiseFits} times with different seeds; each fit pseudo-labeled every item, and each metric is the mean of the fits' estimates moved toward the estimate of their consensus (the fits' class probabilities averaged after matching their cluster ids) by the share that brings its Fowlkes-Mallows index to the prediction-powered one of the answered pairs.`
        : `After each batch a surrogate classifier on the item embeddings was trained from scratch on the pairwise answers with the meta classification likelihood${cite("mcl")} and pseudo-labeled every item.`
      : config.fixmatch
        ? config.fixmatchWarmSteps !== null
          ? `After each batch a surrogate classifier (a multilayer perceptron on the item embeddings) was trained with FixMatch${cite("fixmatch")} on the labeled and unlabeled items, for ${config.fixmatchSteps} steps from scratch after the seed batch and for ${config.fixmatchWarmSteps} steps on from the previous batch's weights after each later batch, and pseudo-labeled every unlabeled item.`
          : `After each batch a surrogate classifier (a multilayer perceptron on the item embeddings) was trained from scratch with FixMatch${cite("fixmatch")} for ${config.fixmatchSteps} steps on the labeled and unlabeled items, and pseudo-labeled every unlabeled item.`
        : `After each batch a surrogate classifier (a multilayer perceptron on the item embeddings) was trained from scratch on the labeled items and pseudo-labeled every unlabeled item.`,
  );
  const summary = ESTIMATOR_SUMMARIES[config.estimator];
  const estimatorText = summary ? summary.estimate.replace(/\.$/, "") : config.estimator;
  sentences.push(`Each metric was estimated with the ${config.estimator} estimator: ${estimatorText}.`);
  sentences.push(
    `Its ${pct} intervals and the probability of each clustering being the best, P(best), come from bootstrap draws${config.mode === "clusterwise" && usesPpi(config.estimator) ? ` of the prediction-powered table${cite("ppi", "ppiPlusPlus")}` : ""}.`,
  );
  const agreement = config.agreement?.value != null
    ? ` Where ${config.overlap} annotators labeled the same ${unit}, ${config.agreement.method === "cohen" ? "Cohen's kappa" : "Krippendorff's alpha"} was ${config.agreement.value.toFixed(2)} over ${count(config.agreement.units)} ${unit}; the majority label was used.`
    : config.overlap > 1
      ? ` Each of the ${unit} was to be labeled by ${config.overlap} annotators and the majority label was used.`
      : "";
  sentences.push(
    `The reported numbers use ${count(config.labels)} labels from ${config.annotators} annotator${config.annotators === 1 ? "" : "s"} over ${config.rounds} round${config.rounds === 1 ? "" : "s"} (budget ${count(config.budget)}).${agreement}`,
  );
  if (config.labelFree) sentences.push(`For reference, the label-free ${config.labelFree} score is reported beside the estimates, combined across embedding spaces with ACE${cite("ace")}.`);
  sentences.push(`Every random choice derives from seed ${config.seed}${config.codeVersion ? `; code version ${config.codeVersion}` : ""}.`);
  const text = sentences.join(" ");
  return (style === "latex" ? latexEscape(text) : text).replace(/\u0000(\d+)\u0000/g, (_, i: string) => cites[Number(i)]);
}
