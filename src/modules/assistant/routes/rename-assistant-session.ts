// PATCH /assistant/sessions/:session_id (docs/assistant.md, "Endpoints").
import { Type } from '@sinclair/typebox';
import { ok } from '../../../api/declare-route.js';
import { SessionParams } from '../schemas.js';
import { route, user } from './shared.js';

export const renameAssistantSession = route('PATCH /assistant/sessions/:session_id', 'renameAssistantSession', {
  summary: 'Rename a session',
  params: SessionParams,
  body: Type.Ref('AssistantSessionRename'),
  response: ok('AssistantSession', 'The session, renamed'),
  handler: async ({ assistant }, request) => assistant.renameSession(user(request), request.params.session_id, (request.body as { title: string }).title),
});
