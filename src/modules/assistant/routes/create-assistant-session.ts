// POST /assistant/sessions (docs/assistant.md, "Endpoints").
import { Type } from '@sinclair/typebox';
import { created } from '../../../api/declare-route.js';
import { route, user } from './shared.js';

export const createAssistantSession = route('POST /assistant/sessions', 'createAssistantSession', {
  summary: 'A new session',
  body: Type.Ref('AssistantSessionCreate'),
  response: created('AssistantSession', 'The new session'),
  handler: async ({ assistant }, request, reply) => reply.code(201).send(await assistant.createSession(user(request), (request.body as { title?: string } | undefined)?.title)),
});
