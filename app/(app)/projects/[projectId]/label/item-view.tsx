"use client";

import { useState } from "react";
import type { ItemView as Item } from "@/lib/server/labeling/item-view";

/**
 * One item, in a box of fixed size so nothing around it moves from item to item. Small images
 * (Fashion-MNIST's 28 x 28) are upscaled with hard pixel edges, which shows what the pixels are;
 * photos larger than that keep smooth scaling. Texts get a readable measure and scroll inside.
 */
const PIXELATED_BELOW = 128;

/** `size` is a CSS length (it follows the window's height; see the workspace). */
export function ItemView({ item, size, textWidth = size, caption }: { item: Item; size: string; textWidth?: number | string; caption?: string }) {
  const [natural, setNatural] = useState<{ src: string; width: number } | null>(null);
  const pixelated = natural?.src === item.imageUrl ? natural.width < PIXELATED_BELOW : true;
  return (
    <figure className="flex flex-col items-center">
      <div
        className="relative flex items-center justify-center overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
        style={{ width: item.imageUrl ? size : textWidth, height: size, maxWidth: "100%" }}
      >
        {item.imageUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- an authorized API route, preloaded by the queue; next/image would re-encode a 28 px image
          <img
            key={item.imageUrl}
            src={item.imageUrl}
            alt={`Item ${item.externalId}`}
            draggable={false}
            onLoad={(event) => setNatural({ src: item.imageUrl!, width: event.currentTarget.naturalWidth })}
            className="h-full w-full object-contain select-none"
            style={{ imageRendering: pixelated ? "pixelated" : "auto" }}
          />
        ) : item.text ? (
          // Short texts sit in the middle; long ones start at the top and scroll (auto margins collapse on overflow).
          <div className="flex h-full w-full overflow-y-auto px-9 py-8">
            <p className="m-auto max-w-[60ch] text-lg leading-relaxed whitespace-pre-wrap text-slate-800">{item.text}</p>
          </div>
        ) : (
          <p className="text-sm text-slate-500">This item has neither an image nor a text.</p>
        )}
      </div>
      <figcaption className="mt-3 flex h-5 items-center gap-2 text-xs text-slate-500">
        {caption && <span className="font-semibold text-slate-700">{caption}</span>}
        <span className="font-mono">{item.externalId}</span>
      </figcaption>
    </figure>
  );
}
