/** TF.js surrogates: what lib/server and bin/ use from models/. */
export { createMlpSurrogate, mlpSurrogateFactory, MlpSurrogate, type MlpFitReport, type MlpSurrogateConfig } from "./mlp-surrogate";
export { chooseBackend, ensureBackend, type BackendChoice, type ModuleLoader } from "./backend";
