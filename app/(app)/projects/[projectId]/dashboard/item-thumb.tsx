import type { ItemView } from "@/lib/server/labeling/item-view";

const SIZES = {
  small: { px: 36, box: "h-9 w-9", text: "text-[9px]", chars: 24 },
  large: { px: 80, box: "h-20 w-20", text: "text-[10px]", chars: 90 },
};

/** An item at a glance: its image, or the start of its text (the whole text on hover). */
export function ItemThumb({ item, size = "small" }: { item: ItemView; size?: keyof typeof SIZES }) {
  const s = SIZES[size];
  if (item.imageUrl)
    // eslint-disable-next-line @next/next/no-img-element -- an authorized API image, not a static asset for next/image
    return <img src={item.imageUrl} alt={`item ${item.externalId}`} width={s.px} height={s.px} loading="lazy" className={`${s.box} shrink-0 rounded bg-slate-100 object-cover [image-rendering:pixelated]`} />;
  return (
    <span className={`flex ${s.box} shrink-0 items-center justify-center overflow-hidden rounded bg-slate-100 p-0.5 ${s.text} leading-tight text-slate-600`} title={item.text ?? item.externalId}>
      {item.text ? item.text.slice(0, s.chars) : `#${item.index}`}
    </span>
  );
}
