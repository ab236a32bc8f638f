/**
 * What each estimator's numbers mean, in a sentence each, for the settings page and the dashboard
 * (plain data, safe in a client bundle). Details and measurements: ESTIMATORS.md.
 */
export interface EstimatorSummary {
  /** what the point estimate is computed from */
  readonly estimate: string;
  /** how its 90% interval (and P(best)) come about */
  readonly interval: string;
}

const BOOTSTRAP = "90% bootstrap: the labeled items resampled and every pseudo-label drawn from the surrogate, so early on an interval may not contain its estimate.";

const WEAK_AND_DIFFUSE =
  "once the surrogate gets under 60% of newly labeled items right, prediction-powered with a jackknife correction of its small-sample bias; when it is right more than 5 points more often than its confidence says (diffuse), prediction-powered from its most likely class";
const GUARDED_BRANCHES = `${WEAK_AND_DIFFUSE}.`;
/** the default's branches since a diffuse surrogate needs the soft-prediction-powered gap to show */
const GUARDED_BRANCHES_GAPPED = `${WEAK_AND_DIFFUSE} in the rounds where the soft and prediction-powered NMI are more than 2 jackknife standard errors apart.`;
const GUARDED_ESTIMATE = `soft (labels + the surrogate's class distributions) while the surrogate is healthy; ${GUARDED_BRANCHES}`;
const GUARDED_INTERVAL =
  "the prediction-powered table's 90% bootstrap spread, centred on the estimate and widened by its distance from that table's median, or, where the estimate is prediction-powered, from the soft estimate if that is farther.";
const BLENDED_INTERVAL =
  "the prediction-powered table's 90% bootstrap spread, centred on the estimate and widened by its distance from that table's median or from the soft estimate, whichever is farther.";
const FLOORED_INTERVAL =
  "the prediction-powered table's 90% bootstrap spread, no narrower than that table's jackknife standard error allows, centred on the estimate and widened by its distance from that table's median or from the soft estimate, whichever is farther.";
const POOL_FLOORED_INTERVAL =
  "the prediction-powered table's 90% bootstrap spread, no narrower than that table's jackknife standard error allows nor than the pool's own noise (how far the truth may lie from the soft table were each unlabeled item's class drawn from the surrogate's distribution), centred on the estimate and widened by its distance from that table's median or from the soft estimate, whichever is farther.";
const GUARDED_INTERVAL_BEFORE = "the prediction-powered table's 90% bootstrap spread, centred on the estimate and widened by its distance from that table's median.";

export const ESTIMATOR_SUMMARIES: Readonly<Record<string, EstimatorSummary>> = {
  labels: { estimate: "the labeled items alone, no surrogate (Random in the paper's tables).", interval: "90% bootstrap over the labeled items." },
  argmax: { estimate: "labels + the surrogate's most likely class on every other item (the paper's estimator).", interval: BOOTSTRAP },
  soft: { estimate: "labels + the surrogate's whole class distribution on every other item (expected counts).", interval: BOOTSTRAP },
  ppi: {
    estimate: "prediction-powered: the surrogate's soft table over every item, corrected by its errors on each newly labeled batch (made before it saw them), weighted by how the batch was drawn, power-tuned, each cluster rescaled to its size.",
    interval: BOOTSTRAP,
  },
  "ppi-hard": { estimate: "prediction-powered as ppi, from the surrogate's most likely class instead of its distribution.", interval: BOOTSTRAP },
  "ppi-per-cluster": { estimate: "prediction-powered as ppi, with the share of the correction tuned per cluster over every batch instead of per batch (a cluster the surrogate reads well trusts it more).", interval: BOOTSTRAP },
  "ppi-untuned": { estimate: "prediction-powered as ppi, with the whole correction (lambda = 1).", interval: BOOTSTRAP },
  "ppi-size": { estimate: "prediction-powered as ppi, its batches weighted by size.", interval: BOOTSTRAP },
  "ppi-ht": { estimate: "prediction-powered as ppi, with a plain Horvitz-Thompson correction and no rescaling of the clusters to their sizes.", interval: BOOTSTRAP },
  "ppi-stage-ratio": { estimate: "prediction-powered as ppi, each batch's correction scaled to the cluster sizes on its own (biased when batches are small).", interval: BOOTSTRAP },
  "ppi-labels": { estimate: "prediction-powered as ppi with no surrogate term (lambda = 0): the labels alone, weighted by how they were drawn, each cluster rescaled to its size.", interval: BOOTSTRAP },
  "ppi-jackknife": { estimate: "prediction-powered as ppi, with a jackknife correction of its small-sample bias (what the guarded estimator reports whenever it reports the prediction-powered table).", interval: BOOTSTRAP },
  guarded: {
    estimate: `the mean of soft (labels + the surrogate's class distributions) and prediction-powered (where the two disagree the truth has mostly lain between them), the latter with a jackknife correction of its small-sample bias until the labels number one per cell of the clustering's table (classes × clusters); except ${GUARDED_BRANCHES_GAPPED}`,
    interval: POOL_FLOORED_INTERVAL,
  },
  "guarded-linear-plentiful": {
    estimate: "as guarded, but once the labels number 5 per cell of the clustering's table, the soft estimate moved to first order by the prediction-powered table wherever that move is more than 2 of its jackknife standard errors (the guarded estimator from 2026-12-05 to 2026-12-06; on fresh seeds it did worse than the mean).",
    interval: POOL_FLOORED_INTERVAL,
  },
  "guarded-diffuse-always": {
    estimate: "as guarded, but once the surrogate has read diffuse, prediction-powered from its most likely class in every round (the guarded estimator until 2026-12-06: a calibrated surrogate can read diffuse by chance).",
    interval: POOL_FLOORED_INTERVAL,
  },
  "guarded-per-cluster": {
    estimate: "as guarded, its prediction-powered table as ppi-per-cluster (the share of the correction tuned per cluster).",
    interval: POOL_FLOORED_INTERVAL,
  },
  "guarded-pick": {
    estimate: `${GUARDED_ESTIMATE} Once its confidence has been more than 25 points above how often it is right (overconfident), prediction-powered in the rounds where the soft and prediction-powered NMI are more than 2 jackknife standard errors apart; and prediction-powered for a clustering once the labels number 5 per cell of its table (classes × clusters), however healthy the surrogate reads; the prediction-powered table always with the jackknife correction (the default before issue #23's average).`,
    interval: GUARDED_INTERVAL,
  },
  "guarded-no-overconfidence": {
    estimate: `${GUARDED_ESTIMATE} It does not read over-confidence (the guarded estimator before issue #23's overconfidence guard).`,
    interval: GUARDED_INTERVAL_BEFORE,
  },
  "guarded-no-gap": {
    estimate: `${GUARDED_ESTIMATE} Once overconfident, prediction-powered (without the jackknife correction) in every later round, however close its soft and prediction-powered NMI (the guarded estimator before the gap test); prediction-powered once the labels number 5 per cell, as guarded-pick.`,
    interval: GUARDED_INTERVAL_BEFORE,
  },
  "guarded-overconfident-15": {
    estimate: `${GUARDED_ESTIMATE} As guarded-pick, but it reads the surrogate as overconfident once its confidence has been more than 15 points (not 25) above how often it is right.`,
    interval: GUARDED_INTERVAL,
  },
  "guarded-no-reach": {
    estimate: `${GUARDED_ESTIMATE} As guarded-pick.`,
    interval: GUARDED_INTERVAL_BEFORE,
  },
  "guarded-gap-always": {
    estimate: `${GUARDED_ESTIMATE} As guarded-pick, but it tests the soft and prediction-powered NMI against each other (2 jackknife standard errors) in every round it would report the soft table, not only once the surrogate has been overconfident.`,
    interval: GUARDED_INTERVAL,
  },
  "guarded-blend": {
    estimate: `soft (labels + the surrogate's class distributions) and prediction-powered with a jackknife correction, weighted by their estimated squared errors (the soft one whole while the two differ by less than the prediction-powered one's jackknife standard error, a quarter of it at 2 standard errors, a ninth at 3), except ${GUARDED_BRANCHES}`,
    interval: BLENDED_INTERVAL,
  },
  "guarded-blend-jk": {
    estimate: `as guarded-blend, the prediction-powered estimate's squared error taken as its jackknife variance plus the square of its jackknife correction, except ${GUARDED_BRANCHES}`,
    interval: BLENDED_INTERVAL,
  },
  "guarded-blend-calibrated": {
    estimate: "as guarded, but where the surrogate has never read overconfident the two estimates are weighted by their estimated squared errors (as guarded-blend) instead of half each.",
    interval: POOL_FLOORED_INTERVAL,
  },
  "guarded-no-floor": {
    estimate: "as guarded (its interval is the guarded estimator's before its spread was held to the jackknife's).",
    interval: BLENDED_INTERVAL,
  },
  "guarded-no-pool-floor": {
    estimate: "as guarded (its interval is the guarded estimator's before its spread was also held to the pool's own noise).",
    interval: FLOORED_INTERVAL,
  },
  "guarded-jackknifed-mean": {
    estimate: "as guarded, but its mean takes the prediction-powered estimate with the jackknife correction at every number of labels (the guarded estimator before it dropped the correction from one label per cell on).",
    interval: FLOORED_INTERVAL,
  },
  "guarded-plain-ppi": {
    estimate: `${GUARDED_ESTIMATE} As guarded-pick, but where overconfident or the labels are plentiful it reports the prediction-powered table without the jackknife correction (the guarded estimator before issue #23's jackknifed branches).`,
    interval: GUARDED_INTERVAL_BEFORE,
  },
};

export function estimatorSummary(name: string): EstimatorSummary | null {
  return ESTIMATOR_SUMMARIES[name] ?? null;
}
