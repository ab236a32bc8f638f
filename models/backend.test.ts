import * as tf from "@tensorflow/tfjs";
import { describe, expect, it } from "vitest";
import { chooseBackend, type ModuleLoader } from "./backend";

/** a loader where the native packages are missing, as on machines without libtensorflow */
const withoutNative: ModuleLoader = async (name) => {
  if (name.startsWith("@tensorflow/tfjs-node")) {
    throw Object.assign(new Error(`Cannot find package '${name}'`), { code: "ERR_MODULE_NOT_FOUND" });
  }
  return import(name);
};

describe("chooseBackend", () => {
  it("falls back to wasm when tfjs-node-gpu and tfjs-node are absent, and logs the choice", async () => {
    const lines: string[] = [];
    const choice = await chooseBackend(withoutNative, (line) => lines.push(line));
    expect(choice.name).toBe("wasm");
    expect(tf.getBackend()).toBe("wasm");
    expect(choice.source).toBe("@tensorflow/tfjs-backend-wasm");
    expect(choice.skipped).toHaveLength(2);
    expect(choice.skipped[0]).toContain("@tensorflow/tfjs-node-gpu");
    expect(lines).toEqual([
      "[models] TF.js backend: wasm (@tensorflow/tfjs-backend-wasm; skipped @tensorflow/tfjs-node-gpu, @tensorflow/tfjs-node)",
    ]);
  });

  it("falls back to cpu when wasm fails too", async () => {
    const onlyCore: ModuleLoader = async (name) => {
      throw new Error(`no ${name} here`);
    };
    const registered = tf.findBackendFactory("wasm");
    // an unregistered wasm backend is what a failed import leaves behind
    tf.removeBackend("wasm");
    try {
      const choice = await chooseBackend(onlyCore, () => {});
      expect(choice.name).toBe("cpu");
      expect(choice.skipped).toHaveLength(3);
    } finally {
      if (registered) tf.registerBackend("wasm", registered);
    }
  });
});
