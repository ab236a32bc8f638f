import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { serverConfig } from "./config";
import { db, lockProject, transaction } from "./db";
import { digitsProject } from "./labeling/labeling-test-fixture";
import { postgresTarget } from "./postgres-url";

/** Whether another process could take the project's lock right now (it does not wait). */
async function otherProcessCanLock(projectId: string): Promise<boolean> {
  const { postgresUrl, databasePath } = serverConfig();
  if (postgresUrl) {
    const client = new pg.Client(postgresTarget(postgresUrl).pool);
    await client.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked", [projectId]);
      return rows[0].locked;
    } finally {
      await client.end();
    }
  }
  const other = new Database(databasePath, { timeout: 0 });
  try {
    other.prepare(`UPDATE "Project" SET "description" = "description" WHERE "id" = ?`).run(projectId);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY")) return false;
    throw error;
  } finally {
    other.close();
  }
}

describe("lockProject", () => {
  it("holds the project from the start of the transaction to its commit: no other process writes between its read and its write", async () => {
    const { projectId } = await digitsProject();
    const project = { id: projectId };
    expect(await otherProcessCanLock(project.id)).toBe(true);
    const seen: boolean[] = [];
    await transaction(async (tx) => {
      await lockProject(tx, project.id);
      await tx.project.findUnique({ where: { id: project.id } });
      seen.push(await otherProcessCanLock(project.id)); // between the read and the write
      await tx.project.update({ where: { id: project.id }, data: { description: "written after the read" } });
    });
    expect(seen).toEqual([false]);
    expect(await otherProcessCanLock(project.id)).toBe(true); // released at commit
    expect((await db().project.findUniqueOrThrow({ where: { id: project.id } })).description).toBe("written after the read");
  });
});
