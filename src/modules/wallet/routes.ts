import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../api/route.js';
import type { Services } from '../../services.js';

export const WalletResponse = Type.Object(
  {
    balance_usd: Type.Number({ description: 'Sum of the ledger: credits minus charges' }),
    reserved_usd: Type.Number({ description: 'Held by unfinished jobs' }),
    available_usd: Type.Number({ description: 'balance_usd - reserved_usd' }),
    currency: Type.Literal('USD'),
  },
  { $id: 'WalletResponse', additionalProperties: false },
);

export const walletRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/wallet',
    {
      schema: {
        operationId: 'getWallet',
        tags: ['wallet'],
        summary: 'Wallet balance and active reservations',
        response: { 200: Type.Ref(WalletResponse, { description: 'The balance, reservations and available funds, in USD' }) },
      },
    },
    async (request) => services.wallet.view(principalOf(request).userId),
  );
};
