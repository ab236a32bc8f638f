"use client";

import { useState } from "react";
import { ModalDialog } from "./modal-dialog";

/** Open mode: name a class that is missing; the current item is labeled with it at once. */
export function NewClassDialog({ open, onClose, onCreate }: { open: boolean; onClose: () => void; onCreate: (name: string, description: string) => Promise<string | null> }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <ModalDialog
      open={open}
      onClose={() => {
        setError(null);
        onClose();
      }}
      title="New class"
    >
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (busy) return;
          setBusy(true);
          const problem = await onCreate(name, description);
          setBusy(false);
          setError(problem);
          if (!problem) {
            setName("");
            setDescription("");
          }
        }}
        className="space-y-4"
      >
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Name</span>
          <input
            data-autofocus
            required
            maxLength={80}
            value={name}
            onChange={(event) => setName(event.target.value)}
            className="mt-1.5 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 focus:outline-none"
          />
        </label>
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Description (optional)</span>
          <input
            maxLength={500}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            placeholder="What belongs in it, for the other annotators"
            className="mt-1.5 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 focus:outline-none"
          />
        </label>
        <p role="alert" className="min-h-5 text-sm text-rose-600">
          {error}
        </p>
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className="rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100">
            Cancel
          </button>
          <button type="submit" disabled={busy} className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60">
            Add and label <span className="ml-1 text-xs font-normal text-indigo-200">Enter</span>
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
