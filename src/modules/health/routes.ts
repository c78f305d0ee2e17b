import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import type { Services } from '../../services.js';

const Health = Type.Object({ status: Type.String(), checks: Type.Optional(Type.Record(Type.String(), Type.String())) }, { additionalProperties: false });

export const healthRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const cfg = { auth: 'none' as const };
  app.get(
    '/health/live',
    {
      config: cfg,
      schema: {
        operationId: 'getLiveness',
        tags: ['health'],
        summary: 'Liveness: the process serves requests',
        response: { 200: { ...Health, description: 'The process serves requests' } },
      },
    },
    async () => ({
      status: 'ok',
    }),
  );

  app.get(
    '/health/ready',
    {
      config: cfg,
      schema: {
        operationId: 'getReadiness',
        tags: ['health'],
        summary: 'Readiness: the database answers',
        response: {
          200: { ...Health, description: 'The database answers' },
          503: { description: 'Problem: the database does not answer within 2 s (retry upstream)', $ref: 'Problem#' },
        },
      },
    },
    async () => {
      const started = Date.now();
      try {
        await Promise.race([services.db.query('SELECT 1'), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref())]);
      } catch {
        throw new AppError('unavailable', 'the database does not answer', { retry: 'upstream' });
      }
      return { status: 'ok', checks: { database: `ok (${services.db.kind}, ${Date.now() - started} ms)` } };
    },
  );
};
