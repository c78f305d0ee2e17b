// What the workflow routes share (docs/workflows.md): their tag, path parameters and the body
// limit of a request carrying a spec.
import { Type } from '@sinclair/typebox';
import { routeFactory } from '../../../api/declare-route.js';
import { MAX_SPEC_BYTES } from '../../../workflows/spec.js';

/** A request carrying a spec may be the spec's 256 KiB plus its envelope; past that, 413. */
export const SPEC_BODY_LIMIT = MAX_SPEC_BYTES + 1024;
export const route = routeFactory({ tags: ['workflows'] });
export const WorkflowIdParams = Type.Object({ workflow_id: Type.String({ maxLength: 100 }) });
export const RunIdParams = Type.Object({ run_id: Type.String({ maxLength: 100 }) });
