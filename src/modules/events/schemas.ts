import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../api/schemas.js';

const Kind = Type.Unsafe<'job' | 'workflow_run'>({ type: 'string', enum: ['job', 'workflow_run'] });

export const RunEvent = Type.Object(
  {
    cursor: Type.String({ description: 'Opaque; pass as `after` to read the events after this one' }),
    event_id: Type.Integer({ description: 'Position in your feed: increases by one per event' }),
    kind: Type.Unsafe<'job' | 'workflow_run'>({ type: 'string', enum: ['job', 'workflow_run'], description: '`job` or `workflow_run`' }),
    occurred_at: Type.String({ format: 'date-time' }),
    status: Type.Unsafe<string>({
      type: 'string',
      enum: ['completed', 'error', 'cancelled', 'failed'],
      description: 'The terminal status: jobs completed, error, cancelled; workflow runs completed, failed, cancelled',
    }),
    subject_id: Type.String({ description: 'The job (process_id) or workflow run id' }),
    workflow_run_id: Type.Optional(Nullable(Type.String(), { description: 'The run a job event belongs to, or null' })),
  },
  { $id: 'RunEvent', additionalProperties: false },
);

export const EventListResponse = Type.Object(
  {
    events: Type.Array(Type.Ref(RunEvent), { description: 'Oldest first' }),
    next_cursor: Nullable(Type.String(), {
      description: 'Pass as `after` to continue; present even when `events` is empty. Always a string from this server (null is never sent).',
    }),
  },
  { $id: 'EventListResponse', additionalProperties: false },
);

export const EventListQuery = Type.Object(
  {
    after: Type.Optional(Type.String({ maxLength: 41, description: 'A next_cursor (or an event cursor); absent: from the oldest retained event' })),
    kind: Type.Optional(Kind),
    subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only the events of this job or workflow run' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Most events per response' })),
    wait: Type.Optional(
      Type.Number({ minimum: 0, maximum: 25, default: 0, description: 'Long poll: seconds to wait for a matching event when there is none yet (0: answer at once)' }),
    ),
  },
  { additionalProperties: false },
);
export type EventListQuery = Static<typeof EventListQuery>;

export const EVENT_SCHEMAS = [RunEvent, EventListResponse];
