// The wallet: balance, reservations and the append-only ledger.
import type { Module } from '../../api/module.js';
import { LedgerItem, LedgerResponse, WalletResponse, walletRoutes } from './routes.js';
import { WalletService } from './service.js';

declare module '../../services.js' {
  interface Services {
    wallet: WalletService;
  }
}

export const walletModule: Module = {
  name: 'wallet',
  provide: ({ db }) => ({ wallet: new WalletService(db) }),
  schemas: [WalletResponse, LedgerItem, LedgerResponse],
  routes: walletRoutes,
};
