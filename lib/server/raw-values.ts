/**
 * Values of rows read with plain SQL ($queryRaw), the same on both databases: SQLite gives numbers
 * (BigInt for COUNT), booleans as 0/1 and nulls; PostgreSQL typed values.
 */

/** a nullable integer column (null or undefined stays null) */
export const nullableNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** a boolean column or expression: true, or 1 from SQLite */
export const rawBoolean = (value: unknown): boolean => value === true || Number(value) === 1;
