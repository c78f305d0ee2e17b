import { randomBase62, sha256hex } from '../auth/tokens.js';

// crk_ + 8-character public prefix + _ + 40 random base62 characters (docs/api-decisions.md, "The contract the code relies on").
const SECRET_RE = /^crk_([0-9A-Za-z]{8})_([0-9A-Za-z]{32,128})$/;

export interface NewSecret {
  secret: string;
  prefix: string;
  hash: string;
}

export function newKeySecret(): NewSecret {
  const prefix = randomBase62(8);
  const secret = `crk_${prefix}_${randomBase62(40)}`;
  return { secret, prefix, hash: sha256hex(secret) };
}

/** The public prefix of a well-formed secret, or null. */
export function parseKeySecret(secret: string): string | null {
  const m = SECRET_RE.exec(secret);
  return m?.[1] ?? null;
}

export const keyPrefixOf = (publicPrefix: string) => `crk_${publicPrefix}`;
