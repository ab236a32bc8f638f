"use client";

import type { ItemView } from "@/lib/server/labeling/item-view";
import type { ClassOption } from "./class-picker";
import { Kbd } from "./kbd";
import { ModalDialog } from "./modal-dialog";

export interface KeyHelp {
  keys: string[];
  action: string;
}

/** The ? key: every key, the classes with their descriptions and examples, and the owner's guidelines. */
export function HelpDialog(props: {
  open: boolean;
  onClose: () => void;
  keyList: KeyHelp[];
  classes: ClassOption[];
  classKeys: (string | null)[];
  examples: Map<number, ItemView[]>;
  guidelines: string;
  pairwise: boolean;
}) {
  const { open, onClose, keyList, classes, classKeys, examples, guidelines, pairwise } = props;
  return (
    <ModalDialog open={open} onClose={onClose} title="Keys, classes and guidelines" wide>
      <div className="grid gap-8 md:grid-cols-[15rem_minmax(0,1fr)]">
        <section aria-labelledby="help-keys">
          <h3 id="help-keys" className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
            Keys
          </h3>
          <dl className="mt-3 space-y-2 text-sm">
            {keyList.map((k) => (
              <div key={k.action} className="flex items-center justify-between gap-3">
                <dt className="text-slate-700">{k.action}</dt>
                <dd className="flex shrink-0 gap-1">
                  {k.keys.map((key) => (
                    <Kbd key={key}>{key}</Kbd>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </section>
        <div className="space-y-8">
          <section aria-labelledby="help-guidelines">
            <h3 id="help-guidelines" className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
              Guidelines
            </h3>
            <p className="mt-3 text-sm leading-relaxed whitespace-pre-wrap text-slate-700">
              {guidelines.trim() || "The project's owner has not written guidelines. When an item fits no class, skip it with a reason."}
            </p>
          </section>
          <section aria-labelledby="help-classes">
            <h3 id="help-classes" className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
              {pairwise ? "Classes behind the pairs" : "Classes"}
            </h3>
            <ul className="mt-3 divide-y divide-slate-100">
              {classes.map((c, i) => (
                <li key={c.index} className="flex items-start gap-3 py-2.5">
                  <span className="w-7 shrink-0">{!pairwise && classKeys[i] ? <Kbd>{classKeys[i]!.toUpperCase()}</Kbd> : null}</span>
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium text-slate-900">{c.name}</p>
                    {c.description && <p className="text-sm text-slate-600">{c.description}</p>}
                    {(examples.get(c.index) ?? []).some((item) => item.text) && (
                      <ul className="mt-1 space-y-0.5 text-xs text-slate-500">
                        {(examples.get(c.index) ?? []).map((item) => (item.text ? <li key={item.index} className="truncate">“{item.text}”</li> : null))}
                      </ul>
                    )}
                  </div>
                  <span className="flex shrink-0 gap-1">
                    {(examples.get(c.index) ?? []).map((item) =>
                      item.imageUrl ? (
                        // eslint-disable-next-line @next/next/no-img-element -- thumbnails from an authorized route
                        <img key={item.index} src={item.imageUrl} alt="" width={40} height={40} className="h-10 w-10 rounded-md ring-1 ring-slate-200" style={{ imageRendering: "pixelated" }} />
                      ) : null,
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </ModalDialog>
  );
}
