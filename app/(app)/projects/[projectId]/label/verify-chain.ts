/**
 * Where one item's chain of "same class?" questions stands (class-verifier.tsx): the order of the
 * classes to ask, frozen when the item is shown (examples refreshed mid-chain must not move the
 * question), how many were answered "different", and whether the class list is shown instead.
 * After the last "different", an open project names a new class; a fixed one shows the list.
 */
export interface VerifyChain {
  readonly taskId: string | null;
  readonly order: readonly number[];
  /** questions answered "different" so far: the class asked now is order[position] */
  readonly position: number;
  /** the class list is shown (L, or every class was "different" in a fixed project) */
  readonly picking: boolean;
}

export type ChainStep = "ask" | "pick" | "newClass";

export function startChain(taskId: string | null, order: readonly number[], classMode: "fixed" | "open"): VerifyChain {
  return { taskId, order, position: 0, picking: order.length === 0 && classMode === "fixed" };
}

/** what the chain shows now: a question, the class list, or (open projects, every class "different") the new-class prompt */
export function chainStep(chain: VerifyChain): ChainStep {
  if (chain.picking) return "pick";
  return chain.position < chain.order.length ? "ask" : "newClass";
}

/** the class asked now, or null when no question is asked */
export function askedClass(chain: VerifyChain): number | null {
  return chainStep(chain) === "ask" ? chain.order[chain.position] : null;
}

/** "different" to the class asked now: the next class, or past the last one, the new-class prompt (open) or the list (fixed) */
export function answerDifferent(chain: VerifyChain, classMode: "fixed" | "open"): VerifyChain {
  if (chainStep(chain) !== "ask") return chain;
  const position = chain.position + 1;
  return { ...chain, position, picking: position >= chain.order.length && classMode === "fixed" };
}

export function showList(chain: VerifyChain): VerifyChain {
  return { ...chain, picking: true };
}

/**
 * Undo within the chain: from the list back to the question it interrupted (or, when every class was
 * "different", to the last question), else one question back; null at the first question, where undo
 * takes back the last label instead.
 */
export function stepBack(chain: VerifyChain): VerifyChain | null {
  if (chain.picking && chain.position < chain.order.length) return { ...chain, picking: false };
  if (chain.position === 0) return null;
  return { ...chain, position: chain.position - 1, picking: false };
}
