/** TF.js surrogates: what lib/server and bin/ use from models/. */
export { createMlpSurrogate, mlpSurrogateFactory, MlpSurrogate, type MlpFitReport, type MlpSurrogateConfig } from "./class-surrogate";
export { chooseBackend, ensureBackend, type BackendChoice, type ModuleLoader } from "./backend";
export { createMclSurrogate, mclSurrogateFactory, MclSurrogate, PAIRWISE_HIDDEN, type PairwiseSurrogateConfig } from "./mcl-surrogate";
export { MCL_DEFAULTS } from "./mcl";
