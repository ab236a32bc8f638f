/**
 * Which key labels which class. The digits come first (1-9, then 0 for the tenth class, as on the
 * keyboard's top row), then the letters the workspace does not reserve for its own commands.
 */
export const RESERVED_KEYS = {
  skip: "s",
  undo: "z",
  newClass: "n",
  unsure: "u",
} as const;

const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
const reserved = new Set<string>(Object.values(RESERVED_KEYS));
const LETTERS = [..."abcdefghijklmnopqrstuvwxyz"].filter((letter) => !reserved.has(letter));

/** The key for each class in order, or null for classes past the last free key (use the filter box). */
export function classKeys(count: number): (string | null)[] {
  const keys = [...DIGITS, ...LETTERS];
  return Array.from({ length: count }, (_, i) => keys[i] ?? null);
}

/** Pairwise answers: the left hand (F) and right hand (J) home keys, and the Y / N mnemonics. */
export const PAIR_KEYS = { same: ["y", "f"], different: ["n", "j"] } as const;

/** One class at a time: leave the questions for the class list (L); class keys apply only once the list shows, so no class loses its key. */
export const SHOW_LIST_KEY = "l";
