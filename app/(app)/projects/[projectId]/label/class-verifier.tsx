import type { ItemView } from "@/lib/server/labeling/item-view";
import type { ClassOption } from "./class-picker";
import { Kbd } from "./kbd";
import { PairAnswers } from "./pair-answers";

export type Verdict = "same" | "different";

/**
 * One class at a time (Project.labelBy "verify", issue #25): the item beside one class, its name,
 * description and a few items members labeled with it, and one question, "same class?". The order
 * (verify-order.ts) puts the model's suggestion first, but nothing marks it as one: the question is
 * asked the same way every time, so a hesitant annotator is not nudged toward "same".
 */
export function ClassVerifier(props: {
  asked: ClassOption;
  examples: ItemView[];
  /** 1-based position of this question, and how many classes there are to ask */
  position: number;
  total: number;
  flash: Verdict | null;
  disabled: boolean;
  onAnswer: (verdict: Verdict) => void;
  onShowList: () => void;
}) {
  const { asked, examples, position, total, flash, disabled, onAnswer, onShowList } = props;
  return (
    <div className="flex flex-col gap-4" data-testid="class-verifier" data-asked-class={asked.index}>
      <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <p className="text-xs text-slate-500" data-testid="verify-position">
          Class {position} of {total}
        </p>
        <p className="mt-1 text-xl font-semibold tracking-tight text-slate-900" data-testid="verify-class-name">
          {asked.name}
        </p>
        {asked.description && <p className="mt-1 text-sm text-slate-600">{asked.description}</p>}
        {examples.length > 0 ? (
          <ul aria-label={`Items labeled ${asked.name}`} className="mt-3 grid grid-cols-3 gap-2">
            {examples.map((item) => (
              <li key={item.index} className="overflow-hidden rounded-lg bg-slate-50 ring-1 ring-slate-200">
                {item.imageUrl ? (
                  // eslint-disable-next-line @next/next/no-img-element -- thumbnails from an authorized route
                  <img src={item.imageUrl} alt={`Labeled ${asked.name}: ${item.externalId}`} className="aspect-square w-full object-contain [image-rendering:pixelated]" />
                ) : (
                  <p className="line-clamp-4 p-2 text-xs text-slate-700">{item.text ?? item.externalId}</p>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 rounded-lg border border-dashed border-slate-300 px-3 py-2 text-xs text-slate-500">No item is labeled with this class yet: judge by its name and description.</p>
        )}
      </div>
      <PairAnswers compact onAnswer={(answer) => answer !== "unsure" && onAnswer(answer)} flash={flash} disabled={disabled} />
      <button type="button" onClick={onShowList} disabled={disabled} aria-keyshortcuts="L" className="self-start text-sm font-medium text-indigo-600 hover:text-indigo-500 disabled:opacity-50">
        Pick from the list instead <Kbd>L</Kbd>
      </button>
    </div>
  );
}
