// Account and wallet commands, run either in the serving process (through the admin socket)
// or directly against the database. One implementation for both paths.
import { UserInputError } from '../modules/users/service.js';
import { MICROS_PER_USD } from '../modules/wallet/service.js';
import type { Services } from '../services.js';

export type AdminCommand =
  | { op: 'users.create'; email: string; password: string; tier?: string }
  | { op: 'users.set-tier'; email: string; tier: string }
  | { op: 'users.list' }
  | { op: 'wallet.credit'; email: string; usd: number };

export async function runAdminCommand(services: Pick<Services, 'users' | 'wallet'>, cmd: AdminCommand): Promise<unknown> {
  switch (cmd.op) {
    case 'users.create':
      return services.users.create(cmd.email, cmd.password, cmd.tier ?? 'free');
    case 'users.set-tier':
      return services.users.setTier(cmd.email, cmd.tier);
    case 'users.list':
      return services.users.list();
    case 'wallet.credit': {
      if (!Number.isFinite(cmd.usd) || cmd.usd <= 0 || cmd.usd > 1_000_000) throw new UserInputError('--usd must be a positive amount up to 1000000');
      const user = await services.users.byEmail(cmd.email);
      const wallet = await services.wallet.credit(user.id, Math.round(cmd.usd * MICROS_PER_USD), `credit by operator (${cmd.usd} USD)`);
      return { email: user.email, ...wallet };
    }
  }
}
