/** TF.js surrogates: what lib/server and bin/ use from models/. */
export { createMlpSurrogate, mlpSurrogateFactory, MlpSurrogate, type MlpFitReport, type MlpSurrogateConfig } from "./mlp-surrogate";
export { chooseBackend, ensureBackend, type BackendChoice, type ModuleLoader } from "./backend";
export { createMclSurrogate, mclSurrogateFactory, MclSurrogate, PAIRWISE_HIDDEN, type PairwiseSurrogateConfig } from "./pairwise-surrogate";
export { MCL_DEFAULTS } from "./mcl";
