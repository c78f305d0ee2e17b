import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../api/route.js';
import type { Services } from '../../services.js';
import { EventListQuery, EventListResponse } from './schemas.js';

export const eventRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { events } = services;
  // Closing the server ends waiting long polls at once (they answer with no events).
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());

  app.get(
    '/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: ['events'],
        summary: 'Completion events of your jobs and workflow runs (gap-free cursor feed, optional long poll)',
        description:
          'Follow the feed by passing each `next_cursor` back as `after`. With `wait` > 0 the call returns as soon as a matching event is committed, or after `wait` seconds with no events and the same cursor. A cursor whose events were removed by retention (30 days) answers 410 cursor-expired.',
        querystring: EventListQuery,
        response: {
          200: Type.Ref(EventListResponse, { description: 'The events after the cursor (possibly none, after a long poll) and the cursor to poll with next' }),
          410: { description: 'Problem: cursor-expired', $ref: 'Problem#' },
        },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const q = request.query;
      const wait = q.wait ?? 0;
      let signal: AbortSignal | undefined;
      if (wait > 0) {
        // The client going away ends the wait.
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        signal = AbortSignal.any([gone.signal, closing.signal]);
      }
      const page = await events.list(p.userId, { after: q.after, kind: q.kind, subjectId: q.subject_id, limit: q.limit ?? 50, wait, signal });
      // Shutting down: do not keep the connection alive, or closing the server waits for its keep-alive timeout.
      if (closing.signal.aborted) reply.header('connection', 'close');
      return page;
    },
  );
};

export { EVENT_SCHEMAS } from './schemas.js';
