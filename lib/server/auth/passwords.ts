import { hash, verify } from "@node-rs/argon2";

/** argon2id with the library's defaults (memory-hard; ~tens of ms per hash). */
export const hashPassword = (password: string) => hash(password);
export const verifyPassword = (passwordHash: string, password: string) => verify(passwordHash, password).catch(() => false);

export const MIN_PASSWORD_LENGTH = 8;
