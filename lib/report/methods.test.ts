import { describe, expect, it } from "vitest";
import { methodsParagraph, methodsReferences, type MethodsConfig } from "./methods";
import { bibtex, bibtexEntry, REFERENCES } from "./references";

const config: MethodsConfig = {
  mode: "clusterwise",
  n: 2000,
  classes: 10,
  clusterings: 3,
  metrics: ["NMI", "ARI"],
  acquisition: "hardnmi",
  design: "proportional",
  estimator: "guarded",
  fixmatch: true,
  fixmatchSteps: 1024,
  fixmatchWarmSteps: null,
  residualWhenCalibrated: null,
  seedSize: 20,
  batchSize: 10,
  budget: 100,
  overlap: 2,
  rounds: 3,
  labels: 40,
  annotators: 2,
  agreement: { method: "cohen", value: 0.8123, units: 40 },
  level: 0.9,
  seed: 7,
  codeVersion: "0.1.0+abc",
  pairwiseFits: 1,
  labelFree: null,
};

describe("the methods paragraph", () => {
  it("says what ran, from the configuration, with the agreement and the seed", () => {
    const text = methodsParagraph(config, "text");
    expect(text).toContain("We estimated the NMI and ARI of 3 clusterings of 2,000 items from few human labels with Cereal (Nayak et al., 2022).");
    expect(text).toContain("scored by the Hard NMI acquisition function and drawn with probability proportional to the score");
    expect(text).toContain("trained from scratch with FixMatch (Sohn et al., 2020) for 1024 steps");
    expect(text).toContain("Each metric was estimated with the guarded estimator: the mean of soft (labels + ");
    expect(text).toContain("Its 90% intervals and the probability of each clustering being the best, P(best), come from bootstrap draws of the prediction-powered table (Angelopoulos et al., 2023; Angelopoulos, Duchi & Zrnic, 2023)");
    expect(text).toContain("40 labels from 2 annotators over 3 rounds (budget 100)");
    expect(text).toContain("Cohen's kappa was 0.81 over 40 items");
    expect(text).toContain("seed 7; code version 0.1.0+abc");
  });

  it("says a warm-started project trains from scratch once, then on from the previous weights", () => {
    const text = methodsParagraph({ ...config, fixmatchWarmSteps: 256 }, "text");
    expect(text).toContain("for 1024 steps from scratch after the seed batch and for 256 steps on from the previous batch's weights after each later batch");
    expect(text).not.toContain("trained from scratch with FixMatch");
  });

  it("says a round scored by the predicted residual where the earlier surrogates read calibrated, and nothing of it where the switch is off", () => {
    const text = methodsParagraph({ ...config, residualWhenCalibrated: 0.05 }, "text");
    expect(text).toContain(
      "scored by the Hard NMI acquisition function (or, in a round whose earlier surrogates, measured on the batches drawn since, were at least 90% right and calibrated within 0.05 between accuracy and confidence, in proportion to the standard deviation of the surrogate's predicted residual (active inference)) and drawn with probability proportional",
    );
    expect(methodsParagraph(config, "text")).not.toContain("predicted residual");
  });

  it("pairwise: the MCL surrogate, and the mean of several fits moved toward their consensus where a round averaged them", () => {
    const pairwise = { ...config, mode: "pairwise" as const };
    expect(methodsParagraph(pairwise, "text")).toContain("trained from scratch on the pairwise answers with the meta classification likelihood (Hsu et al., 2019) and pseudo-labeled every item.");
    expect(methodsParagraph({ ...pairwise, pairwiseFits: 5 }, "text")).toContain(
      "with the meta classification likelihood (Hsu et al., 2019), 5 times with different seeds; each fit pseudo-labeled every item, and each metric is the mean of the fits' estimates moved toward the estimate of their consensus (the fits' class probabilities averaged after matching their cluster ids) by the share that brings its Fowlkes-Mallows index to the prediction-powered one of the answered pairs.",
    );
  });

  it("cites FixMatch and prediction-powered inference only where they were used", () => {
    expect(methodsReferences(config)).toEqual(["cereal", "fixmatch", "ppi", "ppiPlusPlus"]);
    const plain = { ...config, fixmatch: false, estimator: "soft" };
    expect(methodsReferences(plain)).toEqual(["cereal"]);
    expect(methodsParagraph(plain, "text")).not.toMatch(/FixMatch|prediction-powered|Sohn/);
    expect(methodsReferences({ ...config, mode: "pairwise" })).toEqual(["cereal", "mcl"]);
    expect(methodsReferences({ ...config, labelFree: "silhouette" })).toContain("ace");
  });

  it("in LaTeX escapes % and cites the BibTeX keys the .bib file defines", () => {
    const tex = methodsParagraph(config, "latex");
    expect(tex).toContain("90\\% intervals");
    expect(tex).toContain("Cereal~\\cite{nayak2022cereal}");
    expect(tex).toContain("\\cite{angelopoulos2023ppi,angelopoulos2023ppipp}");
    const bib = bibtex(methodsReferences(config));
    for (const key of [...tex.matchAll(/\\cite\{([^}]+)\}/g)].flatMap((m) => m[1].split(","))) expect(bib).toMatch(new RegExp(`@\\w+\\{${key},`));
    expect(bib.match(/^@/gm)).toHaveLength(4);
    expect(bibtexEntry(REFERENCES.fixmatch)).toMatch(/^@inproceedings\{sohn2020fixmatch,\n  title     = \{\{FixMatch\}: Simplifying/);
  });
});
