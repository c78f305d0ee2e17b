// Accounts' credentials: login, token refresh and logout, the credential cache, and the
// retention of their bookkeeping rows.
import type { Module } from '../../api/module.js';
import { sharedSecret } from '../../db/settings.js';
import { Authenticator } from './authenticator.js';
import { RetentionSweep } from './retention.js';
import { authRoutes } from './routes.js';
import { TokenResponse } from './schemas.js';
import { SessionService } from './sessions.js';
import { TokenSigner } from './tokens.js';

declare module '../../services.js' {
  interface Services {
    authenticator: Authenticator;
    sessions: SessionService;
    /** Deletes old login attempts, idempotency keys, ended sessions and expired refresh tokens. */
    retention: RetentionSweep;
  }
}

export const authModule: Module = {
  name: 'auth',
  async provide({ db, config, log }) {
    const signer = new TokenSigner(config.jwtSecret ?? (await sharedSecret(db, 'jwt_secret', 48)), config.accessTokenTtlSec);
    const authenticator = new Authenticator(db, signer);
    return { authenticator, sessions: new SessionService(db, signer, config, () => authenticator.invalidate()), retention: new RetentionSweep(db, log) };
  },
  schemas: [TokenResponse],
  routes: authRoutes,
  tasks: (s) => [s.retention.task()],
  start: (s) => s.authenticator.start(),
  stop: (s) => s.authenticator.stop(),
};
