import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The import arrows of ARCHITECTURE.md as eslint.config.mjs beside this file enforces them: one bad import per
 * boundary, linted as if it stood in that folder, must be refused; a good one must pass.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = value;\n`, { filePath: file });
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

const BAD: [string, string, RegExp][] = [
  ["lib/metrics/fixture.ts", `import { value } from "next/server";`, /framework/],
  ["lib/metrics/fixture.ts", `import { value } from "@/lib/cereal/method/round";`, /below the estimation code/],
  ["lib/random/fixture.ts", `import { value } from "@/lib/metrics";`, /leaf/],
  ["lib/cereal/method/fixture.ts", `import { value } from "react";`, /framework/],
  ["lib/cereal/method/fixture.ts", `import { value } from "@/lib/generated/prisma/client";`, /database/],
  ["lib/cereal/harness/fixture.ts", `import { value } from "@tensorflow/tfjs";`, /TF\.js/],
  ["lib/cereal/pairwise/fixture.ts", `import { value } from "@/lib/server/db";`, /lib\/server depends on this folder/],
  ["lib/ace/fixture.ts", `import { value } from "../server/db";`, /lib\/server depends on this folder/],
  ["lib/clustering/fixture.ts", `import { value } from "@prisma/client";`, /database/],
  ["lib/data/fixture.ts", `import { value } from "@/models";`, /neither app\/ nor models/],
  ["lib/report/fixture.ts", `import { value } from "@/lib/server/db";`, /lib\/server depends on this folder/],
  ["models/fixture.ts", `import { value } from "@/lib/server/db";`, /database/],
  ["models/fixture.ts", `import { value } from "@/lib/generated/prisma/client";`, /database/],
  ["lib/server/fixture.ts", `import { value } from "@/models";`, /WorkerDeps/],
  ["app/fixture.ts", `import { value } from "@/lib/server/db";`, /lib\/server's use cases/],
  ["app/fixture.ts", `import { value } from "@prisma/client";`, /lib\/server's use cases/],
];

describe("eslint boundaries", () => {
  it.each(BAD)("%s may not %s", async (file, source, message) => {
    const messages = await restrictedImports(file, source);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.join("\n")).toMatch(message);
  });

  it.each([
    ["lib/cereal/method/fixture.ts", `import { value } from "@/lib/metrics";`],
    ["models/fixture.ts", `import { value } from "@/lib/cereal/method/surrogate";`],
    ["lib/server/fixture.ts", `import { value } from "@/lib/cereal/method/round";`],
    ["app/fixture.ts", `import { value } from "@/lib/server/projects/projects";`],
  ])("%s may %s", async (file, source) => {
    expect(await restrictedImports(file, source)).toEqual([]);
  });
});
