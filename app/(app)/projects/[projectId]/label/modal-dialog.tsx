"use client";

import { useEffect, useRef } from "react";

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** showModal makes the page behind inert, but Tab would still leave for the browser's own controls. */
function keepTabInside(event: React.KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const [first, last] = [focusable[0], focusable.at(-1)];
  const wrapTo = event.shiftKey ? (document.activeElement === first ? last : null) : document.activeElement === last ? first : null;
  if (!wrapTo) return;
  event.preventDefault();
  wrapTo.focus();
}

/**
 * A native modal <dialog>: focus stays inside, Esc closes it, and focus returns to where it was,
 * which keeps every dialog usable without a mouse.
 */
export function ModalDialog(props: { open: boolean; onClose: () => void; title: string; wide?: boolean; children: React.ReactNode }) {
  const { open, onClose, title, wide, children } = props;
  const ref = useRef<HTMLDialogElement>(null);
  // The close event comes a moment after the dialog closed. Only a close the user made (Esc, the
  // Close button) is reported; one the parent asked for, or one overtaken by reopening, is not.
  const closedByParent = useRef(false);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React's autoFocus runs before the dialog opens; focus the field meant to be typed in now.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) {
      closedByParent.current = true;
      dialog.close();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-label={title}
      onKeyDown={keepTabInside}
      onClose={(event) => {
        const byParent = closedByParent.current;
        closedByParent.current = false;
        if (!byParent && !event.currentTarget.open) onClose();
      }}
      className={`m-auto max-h-[85vh] w-[calc(100%-2rem)] overflow-hidden rounded-2xl bg-white p-0 text-slate-900 shadow-2xl ring-1 ring-slate-200 backdrop:bg-slate-900/40 backdrop:backdrop-blur-[2px] ${
        wide ? "max-w-3xl" : "max-w-md"
      }`}
    >
      {open && (
        <div className="flex max-h-[85vh] flex-col">
          <div className="flex items-center justify-between border-b border-slate-100 px-6 py-4">
            <h2 className="text-base font-semibold">{title}</h2>
            <button type="button" onClick={onClose} className="rounded-lg px-2 py-1 text-sm text-slate-500 hover:bg-slate-100 hover:text-slate-900">
              Close <span className="text-xs text-slate-500">Esc</span>
            </button>
          </div>
          {/* focusable, so a long body (the help) scrolls by keyboard too */}
          <div tabIndex={0} className="overflow-y-auto px-6 py-5">
            {children}
          </div>
        </div>
      )}
    </dialog>
  );
}
