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

const SUBJECTS = ['jobs', 'workflow_runs', 'assistant_turns', 'account'] as const;

export const LedgerItem = Type.Object(
  {
    entry_id: Type.String({ pattern: '^[0-9]{1,18}$', description: "The row's position in the account's ledger (a cursor for `before`)" }),
    kind: Type.Union(
      ['credit', 'debit', 'reserve', 'release', 'charge'].map((k) => Type.Literal(k)),
      {
        description: 'credit and debit: money in and out; reserve: a hold at submit; release: a hold given back; charge: what the work cost',
      },
    ),
    amount_usd: Type.Number({ description: 'Effect on the balance (a charge or debit is negative)' }),
    reserved_delta_usd: Type.Number({ description: 'Effect on the reserved total (a hold is positive, its release negative)' }),
    subject: Type.Union(
      SUBJECTS.map((k) => Type.Literal(k)),
      { description: 'What the row is for: a job, a workflow run, an Assistant turn, or the account itself (credits and debits)' },
    ),
    subject_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'The job, workflow run or Assistant turn; null for the account' }),
    note: Type.Union([Type.String(), Type.Null()], { description: 'The writer\'s note, e.g. "job completed" or "workflow run step dock"' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'LedgerItem', additionalProperties: false },
);

export const LedgerResponse = Type.Object(
  {
    items: Type.Array(Type.Ref(LedgerItem), { description: 'Newest first' }),
    next_before: Type.Union([Type.String({ pattern: '^[0-9]{1,18}$' }), Type.Null()], { description: 'Pass as `before` for the next (older) page; null on the last page' }),
  },
  { $id: 'LedgerResponse', additionalProperties: false },
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

  app.get(
    '/wallet/ledger',
    {
      schema: {
        operationId: 'listLedgerEntries',
        tags: ['wallet'],
        summary: "The wallet's append-only ledger, newest first",
        description:
          "Every move of the account's money: credits, debits, holds at submit, their release and the charges, with the job, workflow run or Assistant turn each is for. The balance is the sum of `amount_usd`; the reserved total the sum of `reserved_delta_usd`. Paged by `before` (the last `entry_id` of a page).",
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            before: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'Only rows older than this entry id' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref(LedgerResponse, { description: 'A page of ledger rows and the cursor of the next' }) },
      },
    },
    async (request) => services.wallet.ledger(principalOf(request).userId, request.query.limit ?? 50, request.query.before ?? null),
  );
};
