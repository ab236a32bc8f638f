import { describe, expect, it } from "vitest";
import { isPostgresUrl, serverConfig } from "./config";
import { postgresTarget } from "./postgres-url";

const env = (vars: Record<string, string>) => ({ ...vars }) as NodeJS.ProcessEnv;

describe("DATABASE_URL", () => {
  it("selects PostgreSQL by its scheme and SQLite for anything else", () => {
    expect(serverConfig(env({ DATABASE_URL: "postgresql://u@h:5432/db" })).postgresUrl).toBe("postgresql://u@h:5432/db");
    expect(serverConfig(env({ DATABASE_URL: "postgres://u@h/db" })).postgresUrl).toBe("postgres://u@h/db");
    expect(serverConfig(env({ DATABASE_URL: "file:var/x.db" }))).toMatchObject({ postgresUrl: null, databasePath: `${process.cwd()}/var/x.db` });
    expect(serverConfig(env({ CEREAL_DATA_DIR: "/d" }))).toMatchObject({ postgresUrl: null, databasePath: "/d/cereal.db" });
    expect(isPostgresUrl(undefined)).toBe(false);
  });

  it("reads the schema from ?schema= and refuses a name it cannot quote safely", () => {
    expect(postgresTarget("postgresql://u@h:5432/db?schema=cereal")).toEqual({ pool: { connectionString: "postgresql://u@h:5432/db", options: "-c search_path=cereal" }, schema: "cereal" });
    expect(postgresTarget("postgresql://u@h:5432/db").schema).toBe("public");
    expect(() => postgresTarget("postgresql://u@h/db?schema=a;drop")).toThrow(/lower-case letters, digits and _/);
  });
});
