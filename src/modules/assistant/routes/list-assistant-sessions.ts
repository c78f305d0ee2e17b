// GET /assistant/sessions (docs/assistant.md, "Endpoints").
import { ok } from '../../../api/declare-route.js';
import { PageQuery } from '../schemas.js';
import { route, user } from './shared.js';

export const listAssistantSessions = route('GET /assistant/sessions', 'listAssistantSessions', {
  summary: 'Your sessions, most recently used first',
  querystring: PageQuery,
  response: ok('AssistantSessionList', 'Your sessions'),
  handler: async ({ assistant }, request) => assistant.listSessions(user(request), request.query),
});
