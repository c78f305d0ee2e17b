// GET /usage: this month's calls against the allowance, storage, keys, and paid work by kind (docs/usage.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../api/route.js';
import type { Services } from '../../services.js';
import { UsageResponse } from './schemas.js';

export const usageRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/usage',
    {
      schema: {
        operationId: 'getUsage',
        tags: ['usage'],
        summary: 'Your monthly allowance of utility and inference calls, storage, keys, and this month’s jobs, workflow runs and Assistant turns',
        response: { 200: Type.Ref(UsageResponse, { description: "This month's calls against the allowance, storage, keys, jobs and runs" }) },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return services.usage.summary(p.userId, p.tier);
    },
  );
};
