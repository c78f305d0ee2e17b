// GET /assistant/sessions/:session_id/turns (docs/assistant.md, "Endpoints").
import { ok } from '../../../api/declare-route.js';
import { PageQuery, SessionParams } from '../schemas.js';
import { route, user } from './shared.js';

export const listAssistantTurns = route('GET /assistant/sessions/:session_id/turns', 'listAssistantTurns', {
  summary: "The session's turns, oldest first",
  params: SessionParams,
  querystring: PageQuery,
  response: ok('AssistantTurnList', "The session's turns"),
  handler: async ({ assistant }, request) => assistant.listTurns(user(request), request.params.session_id, request.query),
});
