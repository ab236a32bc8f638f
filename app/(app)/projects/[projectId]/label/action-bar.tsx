import { Kbd } from "./kbd";

export interface BarAction {
  label: string;
  keys: string[];
  onClick: () => void;
  disabled?: boolean;
}

/** The commands beside the answers (skip, unsure, undo, new class, help), each with its key. */
export function ActionBar({ actions }: { actions: BarAction[] }) {
  return (
    <div className="flex flex-wrap items-center justify-center gap-2" role="toolbar" aria-label="Item actions">
      {actions.map((a) => (
        <button
          key={a.label}
          type="button"
          onClick={a.onClick}
          disabled={a.disabled}
          aria-keyshortcuts={a.keys.join(" ")}
          className="flex h-9 items-center gap-2 rounded-lg bg-white px-3 text-sm font-medium text-slate-700 ring-1 ring-slate-200 hover:bg-slate-50 hover:ring-slate-300 disabled:cursor-not-allowed disabled:opacity-45"
        >
          {a.label}
          <span className="flex gap-1">
            {a.keys.map((k) => (
              <Kbd key={k}>{k}</Kbd>
            ))}
          </span>
        </button>
      ))}
    </div>
  );
}
