import Database from "better-sqlite3";

/**
 * A consistent copy of the SQLite database taken while the app runs: VACUUM INTO reads one
 * snapshot in a single read transaction, which in WAL mode blocks neither the web server nor
 * the worker (the online backup API instead restarts whenever another process writes).
 */
export function copyDatabase(databasePath: string, destination: string) {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    db.prepare("VACUUM INTO ?").run(destination);
  } finally {
    db.close();
  }
}
