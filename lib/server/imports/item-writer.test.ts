import { describe, expect, it } from "vitest";
import { db } from "../db";
import { recommendedProjectSettings } from "../project-data/options-catalogue";
import { openItemWriter } from "./item-writer";

describe("the item bulk insert", () => {
  it("stores every row as given, escapes and nulls included, across batches", async () => {
    const project = await db().project.create({ data: { name: "items", dataPath: "projects/items", bundleName: "b", n: 5, d: 2, itemKind: "text", seed: 1, ...recommendedProjectSettings() } });
    const rows = [
      { index: 0, externalId: "plain", image: null, text: "a plain line" },
      { index: 1, externalId: "tab\tand\nnewline", image: null, text: "back\\slash \\N and \r return" },
      { index: 2, externalId: "ünïcødé ✓", image: "images/2.png", text: null },
      { index: 3, externalId: "\\N", image: null, text: "" },
      { index: 4, externalId: "last", image: null, text: "quote \" and , comma" },
    ];
    const writer = await openItemWriter(project.id);
    try {
      await writer.write(rows.slice(0, 2));
      await writer.write(rows.slice(2));
    } finally {
      await writer.close();
    }
    const stored = await db().item.findMany({ where: { projectId: project.id }, orderBy: { index: "asc" }, select: { id: true, index: true, externalId: true, image: true, text: true } });
    expect(stored).toEqual(rows.map((r) => ({ id: `${project.id}.${r.index}`, ...r })));
  });
});
