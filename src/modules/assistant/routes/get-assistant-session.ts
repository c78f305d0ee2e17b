// GET /assistant/sessions/:session_id (docs/assistant.md, "Endpoints").
import { ok } from '../../../api/declare-route.js';
import { SessionParams } from '../schemas.js';
import { route, user } from './shared.js';

export const getAssistantSession = route('GET /assistant/sessions/:session_id', 'getAssistantSession', {
  summary: 'A session with its messages and plan cards',
  params: SessionParams,
  response: ok('AssistantSessionDetail', 'The session with its messages and plan cards'),
  handler: async ({ assistant }, request) => assistant.getSession(user(request), request.params.session_id),
});
