// Accounts: creation, tiers and passwords (used by the CLI and the first-start bootstrap).
import type { Module } from '../../api/module.js';
import { UserService } from './service.js';

declare module '../../services.js' {
  interface Services {
    users: UserService;
  }
}

export const usersModule: Module = {
  name: 'users',
  provide: ({ db, authenticator }) => ({ users: new UserService(db, () => authenticator.invalidate()) }),
};
