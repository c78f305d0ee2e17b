// Every PostgreSQL advisory-lock key Crucible takes, in one registry so that no two uses
// collide. Keys are shared by every Crucible process on one database.

export const LOCKS = {
  /** Serialises migrators (db/migrate.ts). */
  migrate: 774_201_031,
  /** One retention sweep at a time (modules/auth/retention.ts). */
  retention: 774_201_032,
  /** Namespace of the per-account quota lock (modules/artifacts/store.ts): (namespace, hashtext(user id)). */
  artifactQuota: 774_201_003,
  /** One events purge at a time (modules/events/service.ts). */
  eventsPurge: 774_201_046,
} as const;

/** Per-subject locks taken as pg_advisory_xact_lock(hashtextextended(name, 0)): login attempts by client IP and by email. */
export const LOCK_NAMES = {
  loginIp: (ip: string) => `crucible:login-ip:${ip}`,
  loginEmail: (emailLower: string) => `crucible:login-email:${emailLower}`,
} as const;
