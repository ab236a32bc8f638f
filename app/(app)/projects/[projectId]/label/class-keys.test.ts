import { describe, expect, it } from "vitest";
import { classKeys } from "./class-keys";

describe("classKeys", () => {
  it("gives ten classes the top row, 1 to 9 then 0", () => {
    expect(classKeys(10)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]);
  });

  it("continues with letters, never S, Z, N or U, and runs out after 32 classes", () => {
    const keys = classKeys(34);
    expect(keys.slice(10, 16)).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(keys.slice(10, 32)).toEqual([..."abcdefghijklmopqrtvwxy"]);
    expect(keys.slice(32)).toEqual([null, null]);
    expect(new Set(keys.filter(Boolean)).size).toBe(32);
  });
});
