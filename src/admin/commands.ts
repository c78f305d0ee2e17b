// Account and wallet commands, run either in the serving process (through the admin socket)
// or directly against the database. One implementation for both paths.
import { AppError } from '../errors.js';
import { randomBase62 } from '../modules/auth/tokens.js';
import { UserInputError } from '../modules/users/service.js';
import { MICROS_PER_USD } from '../modules/wallet/service.js';
import type { Services } from '../services.js';

export type AdminCommand =
  | { op: 'users.create'; email: string; password: string; tier?: string }
  | { op: 'users.set-tier'; email: string; tier: string }
  | { op: 'users.list' }
  | { op: 'users.set-password'; email: string; password?: string }
  | { op: 'wallet.credit'; email: string; usd: number };

export async function runAdminCommand(services: Pick<Services, 'users' | 'wallet'>, cmd: AdminCommand): Promise<unknown> {
  switch (cmd.op) {
    case 'users.create':
      return services.users.create(cmd.email, cmd.password, cmd.tier ?? 'free');
    case 'users.set-tier':
      return services.users.setTier(cmd.email, cmd.tier);
    case 'users.list':
      return services.users.list();
    case 'users.set-password': {
      // Without --password a random one is made and returned once (the CLI prints it).
      const password = cmd.password ?? randomBase62(20);
      const user = await services.users.setPassword(cmd.email, password);
      return { ...user, ...(cmd.password === undefined ? { password } : {}), sessions: 'ended' };
    }
    case 'wallet.credit': {
      if (!Number.isFinite(cmd.usd) || cmd.usd === 0 || Math.abs(cmd.usd) > 1_000_000)
        throw new UserInputError('--usd must be a non-zero amount up to 1000000 (negative: a debit)');
      const user = await services.users.byEmail(cmd.email);
      const micros = Math.round(Math.abs(cmd.usd) * MICROS_PER_USD);
      try {
        const wallet =
          cmd.usd > 0
            ? await services.wallet.credit(user.id, micros, `credit by operator (${cmd.usd} USD)`)
            : await services.wallet.debit(user.id, micros, `debit by operator (${-cmd.usd} USD)`);
        return { email: user.email, ...wallet };
      } catch (err) {
        if (err instanceof AppError) throw new UserInputError(err.message);
        throw err;
      }
    }
  }
}
