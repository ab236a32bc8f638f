import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** Opens (creating if needed) the SQLite file with the settings every connection of ours uses. */
export function openDatabaseFile(databasePath: string): Database.Database {
  fs.mkdirSync(path.dirname(databasePath), { recursive: true });
  const db = new Database(databasePath, { timeout: 10_000 });
  // WAL lets the web server read while the worker writes; the mode is stored in the file.
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  return db;
}
