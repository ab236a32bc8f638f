import type { Toast } from "./use-toasts";

/** Notices float above the page's bottom edge, so they never push the item or the buttons. */
export function ToastStack({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-6 z-50 flex flex-col items-center gap-2 px-4">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          data-testid="toast"
          className={`pointer-events-auto flex max-w-xl items-start gap-3 rounded-xl px-4 py-3 text-sm shadow-lg ring-1 ${
            toast.tone === "error" ? "bg-white text-slate-900 ring-rose-200" : "bg-slate-900 text-white ring-slate-900"
          }`}
        >
          {toast.tone === "error" && <span aria-hidden className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-rose-500" />}
          <p className="leading-snug">{toast.text}</p>
          <button type="button" onClick={() => onDismiss(toast.id)} className="ml-2 shrink-0 rounded text-xs opacity-60 hover:opacity-100" aria-label="Dismiss">
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
