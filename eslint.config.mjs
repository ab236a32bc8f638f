import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The arrows of ARCHITECTURE.md, enforced: app -> lib/server -> (lib/cereal, lib/ace,
// lib/clustering, lib/data, models) -> lib/metrics -> lib/random. Each group names what a
// folder may never import; eslint.test.ts lints one bad import per boundary.
const FRAMEWORK = [
  { group: ["next", "next/*", "react", "react/*", "react-dom", "react-dom/*"], message: "Pure library code imports no framework (ARCHITECTURE.md)." },
  { group: ["@prisma/*", "@/lib/generated/*", "better-sqlite3", "pg", "pg-copy-streams", "**/lib/generated/**"], message: "Only lib/server talks to the database." },
  { group: ["@tensorflow/*"], message: "TF.js lives in models/; the estimation logic takes a surrogate interface." },
  { group: ["@/lib/server/*", "**/lib/server/**", "../server/*", "../../server/*"], message: "lib/server depends on this folder, not the other way round." },
  { group: ["@/app/*", "@/models", "@/models/*", "**/models/**"], message: "Pure library code imports neither app/ nor models/." },
];
const DATABASE = [
  { group: ["@prisma/*", "@/lib/generated/*", "**/lib/generated/**", "better-sqlite3", "pg", "pg-copy-streams", "@/lib/server/db", "**/server/db"], message: "Pages and routes reach the database through lib/server's use cases." },
];
const restrict = (patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", "lib/generated/**", "next-env.d.ts", ".data/**", "var/**", "test-results/**", "playwright-report/**"],
  },
  { files: ["lib/metrics/**", "lib/random/**", "lib/cereal/**", "lib/ace/**", "lib/clustering/**", "lib/data/**", "lib/report/**"], rules: restrict(FRAMEWORK) },
  {
    files: ["lib/random/**"],
    rules: restrict([...FRAMEWORK, { group: ["@/lib/*", "../*"], message: "lib/random is a leaf: it imports nothing of the project." }]),
  },
  {
    files: ["lib/metrics/**"],
    rules: restrict([...FRAMEWORK, { group: ["@/lib/cereal*", "@/lib/ace*", "@/lib/clustering*", "@/lib/data*", "../cereal/*", "../ace/*", "../clustering/*", "../data/*"], message: "lib/metrics sits below the estimation code." }]),
  },
  {
    files: ["models/**"],
    rules: restrict([
      ...DATABASE,
      { group: ["@/lib/server/*", "**/lib/server/**", "@/app/*"], message: "models/ implements lib/cereal's surrogate interface; the worker hands it to lib/server." },
    ]),
  },
  {
    files: ["lib/server/**"],
    ignores: ["**/*.test.ts"],
    rules: restrict([{ group: ["@/app/*", "@/models", "@/models/*", "**/models/**"], message: "lib/server imports neither app/ nor models/ (the worker hands the surrogates in as WorkerDeps)." }]),
  },
  { files: ["app/**"], rules: restrict(DATABASE) },
];
export default config;
