/** An item as the browser shows it: its id, its text, and its image through the authorized route (never a file path). */
export interface ItemView {
  index: number;
  externalId: string;
  text: string | null;
  imageUrl: string | null;
}

export function itemView(projectId: string, index: number, item: { externalId: string; text: string | null; image: string | null } | undefined): ItemView {
  return {
    index,
    externalId: item?.externalId ?? String(index),
    text: item?.text ?? null,
    imageUrl: item?.image ? `/api/projects/${projectId}/items/${index}/image` : null,
  };
}
