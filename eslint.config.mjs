import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", "lib/generated/**", "next-env.d.ts", ".data/**", "var/**", "test-results/**", "playwright-report/**"],
  },
];
export default config;
