import { Kbd } from "./kbd";

export type PairAnswer = "same" | "different" | "unsure";

const OPTIONS: { answer: PairAnswer; label: string; keys: string[]; tone: string; flash: string }[] = [
  { answer: "same", label: "Same class", keys: ["Y", "F"], tone: "ring-emerald-300 hover:bg-emerald-50", flash: "bg-emerald-600 text-white ring-emerald-600" },
  { answer: "unsure", label: "Unsure", keys: ["U"], tone: "ring-slate-300 hover:bg-slate-50", flash: "bg-slate-700 text-white ring-slate-700" },
  { answer: "different", label: "Different", keys: ["N", "J"], tone: "ring-rose-300 hover:bg-rose-50", flash: "bg-rose-600 text-white ring-rose-600" },
];

/**
 * Same on the left hand (F), different on the right (J), unsure between them. `compact`: same and
 * different alone, narrow enough for the class column (one class at a time, where U is on the action bar).
 */
export function PairAnswers({ onAnswer, flash, disabled, compact = false }: { onAnswer: (answer: PairAnswer) => void; flash: PairAnswer | null; disabled: boolean; compact?: boolean }) {
  const options = compact ? OPTIONS.filter((o) => o.answer !== "unsure") : OPTIONS;
  return (
    <div className={compact ? "grid w-full grid-cols-2 gap-3" : "grid w-full max-w-2xl grid-cols-[1fr_auto_1fr] gap-3"}>
      {options.map((o) => (
        <button
          key={o.answer}
          type="button"
          disabled={disabled}
          onClick={() => onAnswer(o.answer)}
          aria-keyshortcuts={o.keys.join(" ")}
          className={`flex h-14 items-center justify-center whitespace-nowrap rounded-xl font-semibold ring-2 transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-50 ${
            compact ? "gap-2 px-3 text-sm" : "gap-3 px-5 text-base"
          } ${flash === o.answer ? o.flash : `bg-white text-slate-800 ${o.tone}`}`}
        >
          {o.label}
          <span className="flex gap-1">
            {o.keys.map((k) => (
              <Kbd key={k} tone={flash === o.answer ? "dark" : "light"}>
                {k}
              </Kbd>
            ))}
          </span>
        </button>
      ))}
    </div>
  );
}
