// The Assistant over HTTP (docs/assistant.md): 15 endpoints, access token only (an API key gets
// 403 api-key-management-forbidden). Approving a plan card charges the wallet and needs an
// Idempotency-Key from every caller.
import { Type } from '@sinclair/typebox';
import type { RoutePlugin } from '../../api/module.js';
import { principalOf } from '../../api/route.js';
import { invalid } from '../../errors.js';
import { Approval, Models, PageQuery, Plan, PlanParams, SessionParams, STREAM_DESCRIPTION, TurnParams } from './schemas.js';
import { resumeAfter, streamTurn } from './stream.js';

const tags = ['assistant'];
const config = { auth: 'token' as const };
const ref = (id: string, description?: string) => Type.Ref(id, description ? { description } : {});

export const assistantRoutes: RoutePlugin = async (app, { services }) => {
  const a = services.assistant;
  const user = (r: Parameters<typeof principalOf>[0]) => principalOf(r).userId;

  app.post(
    '/assistant/sessions',
    {
      config,
      schema: {
        operationId: 'createAssistantSession',
        tags,
        summary: 'A new session',
        body: ref('AssistantSessionCreate'),
        response: { 201: ref('AssistantSession', 'The new session') },
      },
    },
    async (request, reply) => reply.code(201).send(await a.createSession(user(request), (request.body as { title?: string } | undefined)?.title)),
  );

  app.get(
    '/assistant/sessions',
    {
      config,
      schema: {
        operationId: 'listAssistantSessions',
        tags,
        summary: 'Your sessions, most recently used first',
        querystring: PageQuery,
        response: { 200: ref('AssistantSessionList', 'Your sessions') },
      },
    },
    async (request) => a.listSessions(user(request), request.query),
  );

  app.get(
    '/assistant/sessions/:session_id',
    {
      config,
      schema: {
        operationId: 'getAssistantSession',
        tags,
        summary: 'A session with its messages and plan cards',
        params: SessionParams,
        response: { 200: ref('AssistantSessionDetail', 'The session with its messages and plan cards') },
      },
    },
    async (request) => a.getSession(user(request), request.params.session_id),
  );

  app.patch(
    '/assistant/sessions/:session_id',
    {
      config,
      schema: {
        operationId: 'renameAssistantSession',
        tags,
        summary: 'Rename a session',
        params: SessionParams,
        body: ref('AssistantSessionRename'),
        response: { 200: ref('AssistantSession', 'The session, renamed') },
      },
    },
    async (request) => a.renameSession(user(request), request.params.session_id, (request.body as { title: string }).title),
  );

  app.delete(
    '/assistant/sessions/:session_id',
    {
      config,
      schema: {
        operationId: 'deleteAssistantSession',
        tags,
        summary: 'Delete a session with its turns and plan cards (409 while a turn runs); runs started from its cards stay',
        params: SessionParams,
        response: { 200: ref('MessageResponse', 'The session is deleted') },
      },
    },
    async (request) => {
      await a.deleteSession(user(request), request.params.session_id);
      return { message: `assistant session ${request.params.session_id} deleted` };
    },
  );

  app.post(
    '/assistant/sessions/:session_id/turns/estimate',
    {
      config: { ...config, scope: 'read' as const },
      schema: {
        operationId: 'estimateAssistantTurn',
        tags,
        summary: 'Charges nothing: the token bounds of a turn with this message and the hold in USD',
        params: SessionParams,
        body: ref('AssistantTurnRequest'),
        response: { 200: ref('AssistantTurnEstimate', 'The token bounds of a turn and the hold in USD') },
      },
    },
    async (request) => a.estimateTurn(user(request), request.params.session_id, (request.body as { message: string }).message),
  );

  app.post(
    '/assistant/sessions/:session_id/turns',
    {
      config: { ...config, idempotency: true },
      schema: {
        operationId: 'startAssistantTurn',
        tags,
        summary: 'Start a turn: holds funds for its maximum tokens (402 insufficient-funds if short; 409 while another turn of the session runs); follow it on its stream',
        params: SessionParams,
        body: ref('AssistantTurnRequest'),
        response: { 202: ref('AssistantTurnStarted', 'The turn is started: stream it by its turn_id') },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await a.startTurn(principalOf(request), request.params.session_id, (request.body as { message: string }).message, String(request.id))),
  );

  app.get(
    '/assistant/sessions/:session_id/turns/:turn_id/stream',
    {
      // Its one checked input is a header: error locations are rooted by the service itself.
      config: { ...config, input: [] },
      // The stream writes its own frames; the schema documents them (nothing to serialize).
      serializerCompiler: () => (data: unknown) => JSON.stringify(data),
      schema: {
        operationId: 'streamAssistantTurn',
        tags,
        summary: "The turn's events as Server-Sent Events, resumable with Last-Event-ID",
        description: STREAM_DESCRIPTION,
        params: TurnParams,
        querystring: Type.Object(
          { after: Type.Optional(Type.Integer({ minimum: 0, description: 'Resume after this event (the Last-Event-ID header wins)' })) },
          { additionalProperties: false },
        ),
        produces: ['text/event-stream'],
        response: { 200: { description: STREAM_DESCRIPTION, content: { 'text/event-stream': { schema: { $ref: '#/components/schemas/AssistantStreamEvent' } } } } },
      },
    },
    async (request, reply) => {
      const after = resumeAfter(request, request.query.after);
      if (after === 'invalid')
        throw invalid(['header', 'last-event-id'], 'Last-Event-ID should be the id of an event of this turn (an integer)', request.headers['last-event-id'] ?? null);
      const turn = await a.turnRow(user(request), request.params.session_id, request.params.turn_id);
      await streamTurn(services.db, a.waiters, request, reply, turn.id, after);
    },
  );

  app.get(
    '/assistant/sessions/:session_id/turns/:turn_id',
    {
      config,
      schema: {
        operationId: 'getAssistantTurn',
        tags,
        summary: 'A turn: status, tokens, cost',
        params: TurnParams,
        response: { 200: ref('AssistantTurn', 'The turn: status, tokens and cost') },
      },
    },
    async (request) => a.getTurn(user(request), request.params.session_id, request.params.turn_id),
  );

  app.get(
    '/assistant/sessions/:session_id/turns',
    {
      config,
      schema: {
        operationId: 'listAssistantTurns',
        tags,
        summary: "The session's turns, oldest first",
        params: SessionParams,
        querystring: PageQuery,
        response: { 200: ref('AssistantTurnList', "The session's turns") },
      },
    },
    async (request) => a.listTurns(user(request), request.params.session_id, request.query),
  );

  app.post(
    '/assistant/sessions/:session_id/turns/:turn_id/stop',
    {
      config,
      schema: {
        operationId: 'stopAssistantTurn',
        tags,
        summary: 'Stop generating: debits the tokens used, releases the rest of the hold (409 when the turn has ended)',
        params: TurnParams,
        response: { 200: ref('AssistantTurn', 'The turn, stopped: the tokens used are debited, the rest released') },
      },
    },
    async (request) => a.stopTurn(user(request), request.params.session_id, request.params.turn_id),
  );

  app.get(
    '/assistant/plans/:plan_id',
    {
      config,
      schema: {
        operationId: 'getAssistantPlan',
        tags,
        summary: 'A plan card: the proposed workflow run, its estimate, status and expiry',
        params: PlanParams,
        response: { 200: Type.Ref(Plan, { description: 'The plan card' }) },
      },
    },
    async (request) => a.getPlan(user(request), request.params.plan_id),
  );

  app.post(
    '/assistant/plans/:plan_id/approve',
    {
      config: { ...config, idempotency: 'always' as const },
      schema: {
        operationId: 'approveAssistantPlan',
        tags,
        summary:
          'Start the proposed workflow run: charges your wallet (reserves its estimate). Idempotency-Key required from every caller; 409 when the card expired or was decided',
        params: PlanParams,
        response: { 201: Type.Ref(Approval) },
      },
    },
    async (request, reply) => {
      const idem = request.idempotency;
      const body = await a.approvePlan(principalOf(request), request.params.plan_id, (tx, answer) => idem?.saveInTx(tx, 201, answer) ?? Promise.resolve());
      return reply.code(201).send(body);
    },
  );

  app.post(
    '/assistant/plans/:plan_id/reject',
    {
      config,
      schema: {
        operationId: 'rejectAssistantPlan',
        tags,
        summary: 'Reject a plan card (409 when it expired or was decided)',
        params: PlanParams,
        response: { 200: Type.Ref(Plan, { description: 'The plan card, rejected' }) },
      },
    },
    async (request) => a.rejectPlan(user(request), request.params.plan_id),
  );

  app.get(
    '/assistant/models',
    {
      config,
      schema: {
        operationId: 'listAssistantModels',
        tags,
        summary: 'The language models available and their token prices',
        response: { 200: Type.Ref(Models, { description: 'The language models and their token prices' }) },
      },
    },
    async () => a.models(),
  );
};
