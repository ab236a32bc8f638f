"use client";

import { useState } from "react";
import { ModalDialog } from "./modal-dialog";

const COMMON_REASONS = ["Unrecognizable", "Fits no class", "Fits several classes", "Broken or empty item"];

/** Skip with an optional reason: S then Enter skips at once; a reason is one Tab or a few letters away. */
export function SkipDialog({ open, onClose, onSkip }: { open: boolean; onClose: () => void; onSkip: (reason: string | undefined) => void }) {
  const [reason, setReason] = useState("");
  const submit = (text: string) => {
    setReason("");
    onSkip(text.trim() || undefined);
  };
  return (
    <ModalDialog open={open} onClose={onClose} title="Skip this item">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit(reason);
        }}
        className="space-y-4"
      >
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Reason (optional)</span>
          <input
            data-autofocus
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            maxLength={500}
            placeholder="Why is it hard to label?"
            className="mt-1.5 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 focus:outline-none"
          />
        </label>
        <div className="flex flex-wrap gap-2">
          {COMMON_REASONS.map((text) => (
            <button key={text} type="button" onClick={() => submit(text)} className="rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-700 hover:bg-slate-200">
              {text}
            </button>
          ))}
        </div>
        <p className="text-xs text-slate-500">A skipped item leaves the batch unlabeled and does not count toward the budget.</p>
        <div className="flex justify-end gap-2 pt-1">
          <button type="button" onClick={onClose} className="rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100">
            Cancel
          </button>
          <button type="submit" className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500">
            Skip <span className="ml-1 text-xs font-normal text-indigo-200">Enter</span>
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
