// API keys: create, list, rename, rotate, revoke; spend ceilings read from the wallet.
import type { Module } from '../../api/module.js';
import { KEY_SCHEMAS, keyRoutes } from './routes.js';
import { KeyService } from './service.js';

declare module '../../services.js' {
  interface Services {
    keys: KeyService;
  }
}

export const keysModule: Module = {
  name: 'keys',
  provide: ({ db, config, wallet, authenticator }) => ({ keys: new KeyService(db, config, wallet, () => authenticator.invalidate()) }),
  schemas: KEY_SCHEMAS,
  routes: keyRoutes,
};
