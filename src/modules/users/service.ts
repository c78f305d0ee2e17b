import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/database.js';
import { TIER_NAMES, tierNameOf, type TierName } from '../../config.js';
import { notifyAuthChange } from '../auth/auth-events.js';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from '../auth/passwords.js';
import { revokeAllSessions } from '../auth/sessions.js';
import { usersStore, type UserRow } from './store.js';

export class UserInputError extends Error {}

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export function tierNumber(tier: number | string): number {
  if (typeof tier === 'number' && Number.isInteger(tier) && tier >= 0 && tier < TIER_NAMES.length) return tier;
  const s = String(tier).toLowerCase();
  if (/^\d$/.test(s) && Number(s) < TIER_NAMES.length) return Number(s);
  const i = TIER_NAMES.indexOf(s as TierName);
  if (i < 0) throw new UserInputError(`unknown tier "${tier}" (one of ${TIER_NAMES.join(', ')})`);
  return i;
}

export interface PublicUser {
  id: string;
  email: string;
  tier: number;
  tier_name: TierName;
  created_at: string;
}

export function publicUser(u: UserRow): PublicUser {
  return { id: u.id, email: u.email, tier: u.tier, tier_name: tierNameOf(u.tier), created_at: u.created_at.toISOString() };
}

/** Account operations shared by the CLI, the admin socket and first-start bootstrap. */
export class UserService {
  constructor(
    private readonly db: Database,
    private readonly onChange: (userId: string) => void = () => {},
  ) {}

  async create(email: string, password: string, tier: number | string): Promise<PublicUser> {
    email = email.trim();
    if (!EMAIL_RE.test(email)) throw new UserInputError(`"${email}" is not an email address`);
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) throw new UserInputError(`the password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
    const t = tierNumber(tier);
    const passwordHash = await hashPassword(password);
    try {
      return publicUser(await usersStore.insert(this.db, email, passwordHash, t));
    } catch (err) {
      if (isUniqueViolation(err)) throw new UserInputError(`an account with the email ${email} already exists`);
      throw err;
    }
  }

  /** A new password; every open session of the account ends (its tokens stop working at once). */
  async setPassword(email: string, password: string): Promise<PublicUser> {
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) throw new UserInputError(`the password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
    const passwordHash = await hashPassword(password);
    const row = await this.db.transaction(async (tx) => {
      const r = await usersStore.setPasswordHash(tx, email, passwordHash);
      if (r) await revokeAllSessions(tx, r.id, 'password changed');
      return r;
    });
    if (!row) throw new UserInputError(`no account with the email ${email}`);
    this.onChange(row.id);
    return publicUser(row);
  }

  async setTier(email: string, tier: number | string): Promise<PublicUser> {
    const t = tierNumber(tier);
    const row = await this.db.transaction(async (tx) => {
      const r = await usersStore.setTier(tx, email, t);
      if (r) await notifyAuthChange(tx, `user:${r.id}`);
      return r;
    });
    if (!row) throw new UserInputError(`no account with the email ${email}`);
    this.onChange(row.id);
    return publicUser(row);
  }

  async byEmail(email: string): Promise<PublicUser> {
    const row = await usersStore.byEmail(this.db, email);
    if (!row) throw new UserInputError(`no account with the email ${email}`);
    return publicUser(row);
  }

  async list(): Promise<PublicUser[]> {
    return (await usersStore.list(this.db)).map(publicUser);
  }
}
