"use client";

import { useState, type RefObject } from "react";
import type { ItemView } from "@/lib/server/labeling/item-view";
import { Kbd } from "./kbd";

export interface ClassOption {
  index: number;
  name: string;
  description: string;
}

/** With more classes than this, a type-to-filter box (/) comes above the buttons. */
export const FILTER_ABOVE = 12;

/**
 * The class buttons, each with its key and a strip of items already labeled with it (images
 * only: a thumbnail says more than a name on a hard case). Past 12 classes, the filter box narrows
 * the list; Enter chooses the highlighted class.
 */
export function ClassPicker(props: {
  classes: ClassOption[];
  keys: (string | null)[];
  examples: Map<number, ItemView[]>;
  flash: number | null;
  disabled: boolean;
  filterRef: RefObject<HTMLInputElement | null>;
  onChoose: (classIndex: number) => void;
}) {
  const { classes, keys, examples, flash, disabled, filterRef, onChoose } = props;
  const [query, setQuery] = useState("");
  const [highlight, setHighlight] = useState(0);
  const withFilter = classes.length > FILTER_ABOVE;
  const needle = query.trim().toLowerCase();
  const shown = classes.map((c, i) => ({ ...c, key: keys[i] ?? null })).filter((c) => !needle || c.name.toLowerCase().includes(needle));
  const active = Math.min(highlight, Math.max(0, shown.length - 1));

  const choose = (classIndex: number) => {
    setQuery("");
    setHighlight(0);
    filterRef.current?.blur();
    onChoose(classIndex);
  };

  return (
    <div className="flex flex-col gap-3">
      {withFilter && (
        <div className="relative">
          <input
            ref={filterRef}
            type="search"
            value={query}
            placeholder="Filter classes"
            aria-label="Filter classes"
            aria-controls="class-list"
            aria-activedescendant={shown[active] ? `class-option-${shown[active].index}` : undefined}
            onChange={(event) => {
              setQuery(event.target.value);
              setHighlight(0);
            }}
            onKeyDown={(event) => {
              if (event.key === "ArrowDown" || event.key === "ArrowUp") {
                event.preventDefault();
                setHighlight((h) => Math.max(0, Math.min(shown.length - 1, h + (event.key === "ArrowDown" ? 1 : -1))));
              } else if (event.key === "Enter") {
                event.preventDefault();
                if (shown[active] && !disabled) choose(shown[active].index);
              } else if (event.key === "Escape") {
                event.preventDefault();
                setQuery("");
                event.currentTarget.blur();
              }
            }}
            className="w-full rounded-xl border border-slate-300 bg-white py-2.5 pr-10 pl-3 text-sm shadow-sm placeholder:text-slate-500 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 focus:outline-none"
          />
          <span className="pointer-events-none absolute top-1/2 right-2.5 -translate-y-1/2">
            <Kbd>/</Kbd>
          </span>
        </div>
      )}
      <ul id="class-list" aria-label="Classes" className={`flex flex-col gap-1.5 ${withFilter ? "-m-1 max-h-[25.5rem] overflow-y-auto p-1" : ""}`}>
        {shown.map((c, i) => {
          const strip = examples.get(c.index) ?? [];
          const highlighted = withFilter && needle !== "" && i === active;
          const flashing = flash === c.index;
          return (
            <li key={c.index} id={`class-option-${c.index}`}>
              <button
                type="button"
                disabled={disabled}
                onClick={() => choose(c.index)}
                title={c.description || undefined}
                aria-keyshortcuts={c.key ?? undefined}
                className={`group flex h-12 w-full items-center gap-3 rounded-xl px-2.5 text-left text-sm transition-colors duration-150 ring-1 disabled:cursor-not-allowed ${
                  flashing
                    ? "bg-indigo-600 text-white ring-indigo-600"
                    : highlighted
                      ? "bg-indigo-50 text-slate-900 ring-indigo-400"
                      : "bg-white text-slate-800 ring-slate-200 hover:bg-slate-50 hover:ring-slate-300 disabled:opacity-50"
                }`}
              >
                <span className="w-7 shrink-0 text-center">{c.key ? <Kbd tone={flashing ? "dark" : "light"}>{c.key.toUpperCase()}</Kbd> : null}</span>
                <span className="min-w-0 flex-1 truncate font-medium">{c.name}</span>
                {strip.some((item) => item.imageUrl) && (
                  <span className="flex shrink-0 gap-1" aria-hidden>
                    {strip.map((item) =>
                      item.imageUrl ? (
                        // eslint-disable-next-line @next/next/no-img-element -- tiny thumbnails from an authorized route
                        <img
                          key={item.index}
                          src={item.imageUrl}
                          alt=""
                          width={32}
                          height={32}
                          className="h-8 w-8 rounded-md bg-slate-100 ring-1 ring-slate-200"
                        />
                      ) : null,
                    )}
                  </span>
                )}
              </button>
            </li>
          );
        })}
        {shown.length === 0 && <li className="rounded-xl border border-dashed border-slate-300 px-3 py-3 text-sm text-slate-500">No class matches “{query}”.</li>}
      </ul>
    </div>
  );
}
