// Request and response schemas of the Assistant's endpoints (docs/assistant.md), in the OpenAPI document.
import { Type } from '@sinclair/typebox';
import { Nullable, pageSchema } from '../../api/schemas.js';
import { JOB_TYPE_NAMES } from '../../compute/registry.js';
import { MAX_MESSAGE_CHARS, MAX_TITLE_CHARS } from './service.js';

const Page = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
};
export const PageQuery = Type.Object(Page, { additionalProperties: false });
export const SessionParams = Type.Object({ session_id: Type.String({ maxLength: 100 }) });
export const TurnParams = Type.Object({ session_id: Type.String({ maxLength: 100 }), turn_id: Type.String({ maxLength: 100 }) });
export const PlanParams = Type.Object({ plan_id: Type.String({ maxLength: 100 }) });

export const SessionCreate = Type.Object(
  { title: Type.Optional(Type.String({ maxLength: MAX_TITLE_CHARS, description: 'Default "New session"' })) },
  { $id: 'AssistantSessionCreate', additionalProperties: false },
);
export const SessionRename = Type.Object({ title: Type.String({ minLength: 1, maxLength: MAX_TITLE_CHARS }) }, { $id: 'AssistantSessionRename', additionalProperties: false });
export const TurnRequest = Type.Object(
  { message: Type.String({ minLength: 1, maxLength: MAX_MESSAGE_CHARS, description: `What you ask, 1 to ${MAX_MESSAGE_CHARS} characters` }) },
  { $id: 'AssistantTurnRequest', additionalProperties: false },
);

const time = Type.String({ format: 'date-time' });
export const Session = Type.Object(
  { session_id: Type.String(), title: Type.String(), turns: Type.Integer(), created_at: time, updated_at: time },
  { $id: 'AssistantSession', additionalProperties: false },
);
export const SessionList = pageSchema('sessions', Session, 'AssistantSessionList');
const Quote = Type.Object(
  {
    cost_usd: Type.Number({ description: 'What the run reserves when it starts' }),
    expected_runtime_sec: Type.Number(),
    steps: Type.Array(
      Type.Object(
        { step_id: Type.String(), job_type: Type.Unsafe<string>({ type: 'string', enum: JOB_TYPE_NAMES }), cost_usd: Type.Number(), expected_runtime_sec: Type.Number() },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export const Plan = Type.Object(
  {
    plan_id: Type.String(),
    session_id: Type.String(),
    turn_id: Type.String(),
    title: Type.String(),
    status: Type.Union(['proposed', 'approved', 'rejected', 'expired'].map((s) => Type.Literal(s))),
    workflow: Type.Record(Type.String(), Type.Unknown(), { description: 'The run it starts: template_id or spec, with inputs (the body of POST /workflows/runs)' }),
    estimate: Quote,
    run_id: Nullable(Type.String(), { description: 'The run its approval started' }),
    created_at: time,
    expires_at: time,
    decided_at: Nullable(time),
  },
  { $id: 'AssistantPlan', additionalProperties: false },
);
export const Approval = Type.Object(
  { ...Plan.properties, run_id: Type.String(), run: Type.Ref('WorkflowRun') },
  { $id: 'AssistantPlanApproval', additionalProperties: false, description: 'The card, now approved, and the workflow run it started' },
);
const Message = Type.Object(
  {
    seq: Type.Integer(),
    turn_id: Type.String(),
    role: Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('tool')]),
    content: Type.String(),
    tool_calls: Nullable(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), arguments: Type.String() }, { additionalProperties: false }))),
    tool_call_id: Nullable(Type.String()),
    created_at: time,
  },
  { additionalProperties: false },
);
export const SessionDetail = Type.Object(
  { ...Session.properties, messages: Type.Array(Message), plans: Type.Array(Type.Ref(Plan)) },
  { $id: 'AssistantSessionDetail', additionalProperties: false },
);
export const Turn = Type.Object(
  {
    turn_id: Type.String(),
    session_id: Type.String(),
    status: Type.Union(['running', 'completed', 'stopped', 'error'].map((s) => Type.Literal(s))),
    message: Type.String(),
    model: Type.String(),
    input_tokens: Type.Integer(),
    output_tokens: Type.Integer(),
    cost_usd: Type.Number({ description: 'Debited when the turn ended (0 while running)' }),
    hold_usd: Type.Number({ description: 'Held while the turn runs' }),
    error: Nullable(Type.String()),
    created_at: time,
    finished_at: Nullable(time),
  },
  { $id: 'AssistantTurn', additionalProperties: false },
);
export const TurnList = pageSchema('turns', Turn, 'AssistantTurnList');
export const TurnStarted = Type.Object(
  {
    turn_id: Type.String(),
    session_id: Type.String(),
    status: Type.Literal('running'),
    hold_usd: Type.Number(),
    stream: Type.String({ description: 'The path of its event stream' }),
  },
  { $id: 'AssistantTurnStarted', additionalProperties: false },
);
export const TurnEstimate = Type.Object(
  {
    model: Type.String(),
    message_tokens: Type.Integer(),
    input_tokens_min: Type.Integer({ description: 'Tokens of the first model step: instructions, tools, the conversation so far and this message' }),
    max_tokens: Type.Integer({ description: 'The most tokens (input and output) the turn may use' }),
    max_output_tokens: Type.Integer(),
    input_price_per_mtok_usd: Type.Number(),
    output_price_per_mtok_usd: Type.Number(),
    min_cost_usd: Type.Number({ description: 'The first step\u2019s input alone' }),
    hold_usd: Type.Number({ description: 'What a turn holds while it runs (402 when the wallet cannot cover it); the most it can cost' }),
  },
  { $id: 'AssistantTurnEstimate', additionalProperties: false },
);
export const Models = Type.Object(
  {
    models: Type.Array(
      Type.Object(
        {
          model: Type.String(),
          provider: Type.Union([Type.Literal('builtin'), Type.Literal('openai')]),
          description: Type.String(),
          input_price_per_mtok_usd: Type.Number(),
          output_price_per_mtok_usd: Type.Number(),
          max_tokens_per_turn: Type.Integer(),
          hold_per_turn_usd: Type.Number(),
        },
        { additionalProperties: false },
      ),
    ),
    default_model: Type.String(),
  },
  { $id: 'AssistantModels', additionalProperties: false },
);

const frame = (event: string, data: ReturnType<typeof Type.Object>, description: string) =>
  Type.Object({ id: Type.Integer({ minimum: 1, description: 'The SSE `id:` line: the event\u2019s number in the turn' }), event: Type.Literal(event), data }, { description });
/** One Server-Sent Event of a turn: its `id:`, `event:` and `data:` (JSON) lines, by event name. */
export const StreamEvent = Type.Union(
  [
    frame('delta', Type.Object({ text: Type.String() }), 'Text of the answer, in order'),
    frame(
      'tool_call',
      Type.Object({ call_id: Type.String(), name: Type.String(), arguments: Type.Unknown({ description: 'The parsed JSON arguments (the text when not JSON)' }) }),
      'The model called a tool',
    ),
    frame(
      'tool_result',
      Type.Object({
        call_id: Type.String(),
        name: Type.String(),
        ok: Type.Boolean(),
        result: Type.Unknown({ description: 'The tool\u2019s answer; `{error: {code, message}}` when it failed' }),
      }),
      'A tool\u2019s answer',
    ),
    frame(
      'plan',
      Type.Object({ plan_id: Type.String(), title: Type.String(), status: Type.Literal('proposed'), expires_at: time, ...Quote.properties }),
      'A plan card to approve or reject',
    ),
    frame(
      'usage',
      Type.Object({ input_tokens: Type.Integer(), output_tokens: Type.Integer(), cost_usd: Type.Number(), hold_usd: Type.Number() }),
      'What the turn used and was debited',
    ),
    frame(
      'done',
      Type.Object({ turn_id: Type.String(), status: Type.Union([Type.Literal('completed'), Type.Literal('stopped')]) }),
      'The last event of a turn that completed or was stopped',
    ),
    frame('error', Type.Object({ turn_id: Type.String(), status: Type.Literal('error'), message: Type.String() }), 'The last event of a turn that failed'),
  ],
  { $id: 'AssistantStreamEvent', description: 'One event of the text/event-stream' },
);

export const STREAM_DESCRIPTION = [
  '`text/event-stream`. Each event has an `id` (its number in the turn, from 1), an `event` name and JSON `data`:',
  '- `delta` `{text}`: text of the answer, in order;',
  '- `tool_call` `{call_id, name, arguments}`: the model called a tool;',
  '- `tool_result` `{call_id, name, ok, result}`: its answer (`result.error` `{code, message}` when it failed; depictions carry `svg`);',
  '- `plan` `{plan_id, title, status, expires_at, cost_usd, expected_runtime_sec, steps}`: a plan card to approve or reject;',
  '- `usage` `{input_tokens, output_tokens, cost_usd, hold_usd}`: what the turn used and was debited;',
  '- `done` `{turn_id, status}` (`completed` or `stopped`) or `error` `{turn_id, status, message}`: the last event, after which the stream closes.',
  'Reconnect with `Last-Event-ID` (or `?after=<id>`) to receive the events after that one, from any instance. A comment line `: keep-alive` is sent every 15 s of silence.',
].join('\n');

export const ASSISTANT_SCHEMAS = [
  StreamEvent,
  SessionCreate,
  SessionRename,
  TurnRequest,
  Session,
  SessionList,
  Plan,
  Approval,
  SessionDetail,
  Turn,
  TurnList,
  TurnStarted,
  TurnEstimate,
  Models,
];
