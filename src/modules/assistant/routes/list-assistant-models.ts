// GET /assistant/models (docs/assistant.md, "Endpoints").
import { ok } from '../../../api/declare-route.js';
import { Models } from '../schemas.js';
import { route } from './shared.js';

export const listAssistantModels = route('GET /assistant/models', 'listAssistantModels', {
  summary: 'The language models available and their token prices',
  response: ok(Models, 'The language models and their token prices'),
  handler: async ({ assistant }) => assistant.models(),
});
