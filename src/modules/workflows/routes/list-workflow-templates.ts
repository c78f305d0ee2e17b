// GET /workflows/templates (docs/workflows.md).
import { ok } from '../../../api/declare-route.js';
import { TEMPLATES } from '../../../workflows/templates.js';
import { WorkflowTemplates } from '../schemas.js';
import { route } from './shared.js';

export const listWorkflowTemplates = route('GET /workflows/templates', 'listWorkflowTemplates', {
  summary: 'Built-in templates: runnable specs (run with template_id, or fork into a definition)',
  response: ok(WorkflowTemplates, 'The built-in templates with their specs'),
  handler: async () => ({ templates: TEMPLATES.map((t) => ({ ...t })) }),
});
