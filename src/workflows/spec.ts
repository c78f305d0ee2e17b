// Workflow specs (docs/workflows.md): the format, and validation that reports every problem at
// once with its location relative to the request (["spec", "steps", 2, "inputs", "molecules"]).
// Each step's params are checked by its job type's own payload schema and estimate rules (so
// the rules live once, in src/compute/types), with its bound input ports standing in for the
// artifact ids they will carry (a molecules input already known as a SMILES list goes inline, so
// the step is priced over those structures).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { JOB_TYPES } from '../compute/registry.js';
import { RESOURCES } from '../compute/resources.js';
import type { Estimate, JobType, PortType } from '../compute/job-type.js';
import { AppError, type Issue, type Loc } from '../errors.js';
import { MAX_MOLECULES, MAX_SMILES_CHARS } from '../compute/types/molecule-jobs.js';
import { compileJsonValidator, isUuid, validationIssues } from '../validation.js';

export const MAX_STEPS = 50;
export const MAX_SPEC_BYTES = 256 * 1024;

const ID = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$', description: 'Letters, digits, _ and -; starts with a letter' });
/** Names of workflow inputs and outputs, and of a step's input ports: what `$inputs.NAME` and a query string carry as they are. */
export const NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_]{0,63}$';
const NAME_RULE = 'letters, digits and _, starting with a letter, at most 64 characters';
/** A map keyed by names: a key that breaks the pattern is an error (not silently let through). */
const Named = <T extends TSchema>(value: T) => Type.Record(Type.String({ pattern: NAME_PATTERN }), value, { additionalProperties: false });
const INPUT_TYPES = ['molecules', 'number', 'integer', 'string', 'boolean', 'model'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

export const WorkflowSpec = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    inputs: Type.Optional(
      Named(
        Type.Object(
          {
            type: Type.Unsafe<InputType>({ type: 'string', enum: [...INPUT_TYPES] }),
            default: Type.Optional(Type.Unknown()),
            description: Type.Optional(Type.String({ maxLength: 1000 })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    steps: Type.Array(
      Type.Object(
        {
          id: ID,
          job_type: Type.String({ minLength: 1, maxLength: 100 }),
          inputs: Type.Optional(Named(Type.String({ maxLength: 300 }))),
          params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
          resource: Type.Optional(Type.String({ maxLength: 40 })),
          continue_on_error: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_STEPS },
    ),
    outputs: Type.Optional(Named(Type.String({ maxLength: 300 }))),
  },
  { $id: 'WorkflowSpec', additionalProperties: false },
);
export type WorkflowSpec = Static<typeof WorkflowSpec>;

export interface Validation {
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
  /** The steps in an order that runs every step after the steps it reads from. */
  step_order: string[];
}

/** What validation learnt of each step beyond the verdict: its estimate and the steps it reads from. */
export interface StepPlan {
  id: string;
  jobType: string;
  resource: string;
  after: string[];
  estimate: Estimate | null;
}

/** The port every job's result artifact has: the result document (GET /jobs/result). */
export const RESULT_OUTPUT = 'result';

/** A job type's output ports, with the result document every job has. */
export function outputPortsOf(t: JobType | undefined): Record<string, PortType> {
  return { ...(t?.ports?.outputs ?? {}), [RESULT_OUTPUT]: 'json' };
}

type Ref = { kind: 'input'; name: string } | { kind: 'step'; step: string; port: string };

/** `$inputs.NAME` or `$steps.ID.outputs.PORT`, or null for anything else. */
export function parseRef(s: string): Ref | null {
  let m = /^\$inputs\.([A-Za-z][A-Za-z0-9_]*)$/.exec(s);
  if (m) return { kind: 'input', name: m[1]! };
  m = /^\$steps\.([A-Za-z][A-Za-z0-9_-]*)\.outputs\.([A-Za-z][A-Za-z0-9_-]*)$/.exec(s);
  if (m) return { kind: 'step', step: m[1]!, port: m[2]! };
  return null;
}

/** `o[k]` when `k` is o's own property: names come from users, and `constructor` or `toString` is no input, port or output. */
export function own<T>(o: Readonly<Record<string, T>> | undefined, k: string): T | undefined {
  return o !== undefined && Object.hasOwn(o, k) ? o[k] : undefined;
}

/** Sets an own property, even one named `__proto__` (which plain assignment would take for the prototype). */
export function putOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/**
 * Why a value does not fit a workflow input's type, or null. A `molecules` value is an artifact id
 * (whose set the run start counts) or a list of 1 to 100,000 SMILES. Run starts check the values
 * they are given and validation checks defaults, with the same rule.
 */
export function inputValueProblem(type: InputType, v: unknown): string | null {
  switch (type) {
    case 'molecules':
      if (typeof v === 'string' && isUuid(v)) return null;
      if (Array.isArray(v) && v.length >= 1 && v.length <= MAX_MOLECULES && v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= MAX_SMILES_CHARS)) return null;
      return `Input should be a molecule set's artifact id or a list of 1 to ${MAX_MOLECULES} SMILES`;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? null : 'Input should be a number';
    case 'integer':
      return Number.isSafeInteger(v) ? null : 'Input should be an integer';
    case 'boolean':
      return typeof v === 'boolean' ? null : 'Input should be a boolean';
    case 'string':
    case 'model':
      return typeof v === 'string' && v.length > 0 && v.length <= 10_000
        ? null
        : `Input should be a ${type === 'model' ? 'model reference (public/<id> or user/<name>)' : 'string'} (1 to 10,000 characters)`;
  }
}

const INPUT_PORT_OF: Record<InputType, PortType | null> = { molecules: 'molecules', model: null, number: null, integer: null, string: null, boolean: null };
/** The artifact id a bound input port carries while a spec is validated (estimates assume a set behind it). */
export const STAND_IN_ARTIFACT = '00000000-0000-0000-0000-000000000000';
/** A stand-in value of each workflow input type, for checking params that refer to an input without a default. */
const STAND_IN: Record<InputType, unknown> = { number: 1, integer: 1, string: 'x', boolean: true, model: 'public/esol-logs', molecules: STAND_IN_ARTIFACT };

let specValidator: ValidateFunction | null = null;
const payloadValidators = new Map<string, ValidateFunction>();

function payloadValidator(t: JobType): ValidateFunction {
  let v = payloadValidators.get(t.name);
  if (!v) payloadValidators.set(t.name, (v = compileJsonValidator(t.payload)));
  return v;
}

/** The schema's issues, a key of a name map that breaks the name pattern said as such. */
function shapeIssues(spec: unknown): Issue[] {
  return validationIssues(specValidator!.errors ?? [], ['spec'], spec).map((issue) => {
    const l = issue.loc;
    const named = (l.length === 3 && (l[1] === 'inputs' || l[1] === 'outputs')) || (l.length === 5 && l[1] === 'steps' && l[3] === 'inputs');
    if (issue.type !== 'extra_forbidden' || !named) return issue;
    const what = l.length === 5 ? 'an input port name' : l[1] === 'inputs' ? 'a workflow input name' : 'a workflow output name';
    return { ...issue, type: 'string_pattern_mismatch', msg: `${JSON.stringify(l[l.length - 1])} is not ${what}: names are ${NAME_RULE}` };
  });
}

/** The payload with each known SMILES list inline in place of its stand-in set (null: none known). */
function inlined(payload: Record<string, unknown>, inline: [string, string, unknown[]][]): Record<string, unknown> | null {
  if (!inline.length) return null;
  const out = { ...payload };
  for (const [field, at, list] of inline) {
    delete out[field];
    putOwn(out, at, list);
  }
  return out;
}

/** Validates a spec; `estimate` runs each step type's own estimate rules (the expression of a filter, a model reference...). */
export async function validateSpec(spec: unknown, estimate: (t: JobType, payload: unknown) => Promise<Estimate>, plans: StepPlan[] = []): Promise<Validation> {
  specValidator ??= compileJsonValidator(WorkflowSpec);
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const at = (loc: Loc, msg: string, input: unknown, type = 'value_error') => errors.push({ type, loc: ['spec', ...loc], msg, input });
  if (!specValidator(spec)) return { valid: false, errors: shapeIssues(spec), warnings, step_order: [] };
  const s = spec as WorkflowSpec;
  const inputs = s.inputs ?? {};
  for (const [name, d] of Object.entries(inputs)) {
    const problem = d.default === undefined ? null : inputValueProblem(d.type, d.default);
    if (problem) at(['inputs', name, 'default'], `the default of a ${d.type} input: ${problem}`, d.default, 'type_error');
  }
  const byId = new Map<string, number>();
  for (const [i, step] of s.steps.entries()) {
    if (byId.has(step.id)) at(['steps', i, 'id'], `duplicate step id "${step.id}" (also step ${byId.get(step.id)})`, step.id, 'duplicate');
    else byId.set(step.id, i);
  }
  // The links between steps are every reference to an existing step, whatever else is wrong with
  // it (a port it does not have, a mistyped one): a bad reference must not hide a cycle.
  const deps = new Map<string, Set<string>>();
  for (const [i, step] of s.steps.entries()) {
    if (byId.get(step.id) !== i) continue; // a duplicate's links are not the first step's
    const mine = new Set<string>();
    for (const refText of Object.values(step.inputs ?? {})) {
      const ref = parseRef(refText);
      if (ref?.kind === 'step' && byId.has(ref.step)) mine.add(ref.step);
    }
    deps.set(step.id, mine);
  }
  for (const [i, step] of s.steps.entries()) {
    const type = JOB_TYPES.get(step.job_type);
    if (!type) {
      at(['steps', i, 'job_type'], `unknown job type "${step.job_type}"; the types are ${[...JOB_TYPES.keys()].join(', ')}`, step.job_type, 'enum');
      continue;
    }
    if (step.resource !== undefined && !Object.hasOwn(RESOURCES, step.resource))
      at(['steps', i, 'resource'], `Input should be one of: ${Object.keys(RESOURCES).join(', ')}`, step.resource, 'enum');
    const payload: Record<string, unknown> = {};
    // Params taken from an input without a default hold a stand-in: a problem found in one is the
    // stand-in's, not the spec's (the run checks the real value).
    const unknownParams = new Map<string, string>();
    // A param whose reference is wrong is reported once, not again as missing from the payload.
    const badParams = new Set<string>();
    // Input ports bound to a SMILES list known now: [stand-in field, inline field, the list].
    const inline: [string, string, unknown[]][] = [];
    const ownIssue = (issue: Issue): boolean => {
      const k = issue.loc[4];
      if (issue.loc[3] === 'params' && typeof k === 'string' && badParams.has(k)) return false;
      if (issue.loc[3] !== 'params' || typeof k !== 'string' || !unknownParams.has(k)) return true;
      warnings.push({ type: 'checked_at_run', loc: issue.loc, msg: `checked when a run gives input "${unknownParams.get(k)}" (it has no default)`, input: null });
      return false;
    };
    // Params: values may be "$inputs.NAME" (the input's default, or a stand-in of its type).
    for (const [k, v] of Object.entries(step.params ?? {})) {
      if (typeof v === 'string' && v.startsWith('$')) {
        const ref = parseRef(v);
        if (ref?.kind !== 'input') {
          at(['steps', i, 'params', k], 'a param may refer to a workflow input only: "$inputs.NAME"', v, 'reference');
          badParams.add(k);
          continue;
        }
        const input = own(inputs, ref.name);
        if (!input) {
          at(['steps', i, 'params', k], `unknown workflow input "${ref.name}"`, v, 'reference');
          badParams.add(k);
          continue;
        }
        if (input.default === undefined) unknownParams.set(k, ref.name);
        putOwn(payload, k, input.default ?? STAND_IN[input.type]);
      } else putOwn(payload, k, v);
    }
    // Input ports: each bound to a workflow input or an earlier step's output of the same type.
    const ports = type.ports?.inputs ?? {};
    for (const [port, refText] of Object.entries(step.inputs ?? {})) {
      const spec = own(ports, port);
      if (!spec) {
        at(
          ['steps', i, 'inputs', port],
          `${step.job_type} has no input port "${port}"${Object.keys(ports).length ? `; its ports are ${Object.keys(ports).join(', ')}` : ''}`,
          refText,
          'port',
        );
        continue;
      }
      const ref = parseRef(refText);
      let given: PortType | null = null;
      if (!ref) at(['steps', i, 'inputs', port], 'Input should be "$inputs.NAME" or "$steps.ID.outputs.PORT"', refText, 'reference');
      else if (ref.kind === 'input') {
        const input = own(inputs, ref.name);
        if (!input) at(['steps', i, 'inputs', port], `unknown workflow input "${ref.name}"`, refText, 'reference');
        else given = INPUT_PORT_OF[input.type];
        if (input && given === null) at(['steps', i, 'inputs', port], `workflow input "${ref.name}" is a ${input.type}, not ${spec.type}`, refText, 'port_type');
      } else {
        const j = byId.get(ref.step);
        const from = j === undefined ? undefined : s.steps[j];
        const out = from && JOB_TYPES.has(from.job_type) ? outputPortsOf(JOB_TYPES.get(from.job_type)) : undefined;
        if (!from) at(['steps', i, 'inputs', port], `unknown step "${ref.step}"`, refText, 'reference');
        else if (out && !own(out, ref.port))
          at(
            ['steps', i, 'inputs', port],
            `step "${ref.step}" (${from.job_type}) has no output port "${ref.port}"; its ports are ${Object.keys(out).join(', ') || 'none'}`,
            refText,
            'port',
          );
        else if (out) given = own(out, ref.port)!;
      }
      if (given !== null && given !== spec.type) at(['steps', i, 'inputs', port], `${port} takes ${spec.type}, and ${refText} gives ${given}`, refText, 'port_type');
      putOwn(payload, spec.field, STAND_IN.molecules);
      // A molecules input known now as a SMILES list (its default, or a run's value) goes inline,
      // as a run gives it (src/workflows/engine.ts): the step's estimate reads the structures as a
      // standalone job's does; an earlier step's output is known only at run time and stays a
      // stand-in set (docs/workflows.md, "Estimate").
      const known = ref?.kind === 'input' && given === spec.type ? own(inputs, ref.name)?.default : undefined;
      if (spec.inline && Array.isArray(known)) inline.push([spec.field, spec.inline, known]);
    }
    for (const [port, p] of Object.entries(ports))
      if (!own(step.inputs, port) && !Object.hasOwn(payload, p.field) && !Object.hasOwn(payload, 'smiles'))
        warnings.push({ type: 'unbound', loc: ['spec', 'steps', i, 'inputs', port], msg: `input port ${port} is not bound (the step's params must give its data)`, input: null });
    const validate = payloadValidator(type);
    if (!validate(payload)) {
      for (const issue of validationIssues(validate.errors ?? [], ['spec', 'steps', i, 'params'], payload)) if (ownIssue(issue)) errors.push(issue);
    } else {
      // Priced over the known structures when the step takes them (else, or when its rules refuse
      // them, over the stand-in set: the run checks the real ones, as before).
      const known = inlined(payload, inline);
      const withKnown = known && validate(known) ? await estimate(type, known).catch(() => null) : null;
      const e =
        withKnown ??
        (await estimate(type, payload).catch((err: unknown) => {
          if (!(err instanceof AppError)) throw err;
          if (err.issues) {
            for (const issue of err.issues) {
              const located = { ...issue, loc: ['spec', 'steps', i, 'params', ...issue.loc] };
              if (ownIssue(located)) errors.push(located);
            }
          } else at(['steps', i, 'params'], err.message, step.params ?? null, err.code);
          return null;
        }));
      if (byId.get(step.id) === i) plans.push({ id: step.id, jobType: type.name, resource: step.resource ?? 'default', after: [...deps.get(step.id)!], estimate: e });
    }
  }
  for (const [name, refText] of Object.entries(s.outputs ?? {})) {
    const ref = parseRef(refText);
    const j = ref?.kind === 'step' ? byId.get(ref.step) : undefined;
    const out = j === undefined || !JOB_TYPES.has(s.steps[j]!.job_type) ? undefined : outputPortsOf(JOB_TYPES.get(s.steps[j]!.job_type));
    if (ref?.kind !== 'step') at(['outputs', name], 'Input should be "$steps.ID.outputs.PORT"', refText, 'reference');
    else if (j === undefined) at(['outputs', name], `unknown step "${ref.step}"`, refText, 'reference');
    else if (out && !own(out, ref.port)) at(['outputs', name], `step "${ref.step}" has no output port "${ref.port}"`, refText, 'port');
  }
  for (const name of Object.keys(inputs)) {
    const used = JSON.stringify(s.steps).includes(`"$inputs.${name}"`);
    if (!used) warnings.push({ type: 'unused', loc: ['spec', 'inputs', name], msg: `workflow input "${name}" is not used by any step`, input: name });
  }
  const order = topologicalOrder([...byId.keys()], deps);
  if (order.cycle.length) at(['steps', byId.get(order.cycle[0]!) ?? 0], `the steps ${order.cycle.join(' -> ')} form a cycle`, order.cycle, 'cycle');
  return { valid: errors.length === 0, errors, warnings, step_order: order.cycle.length ? [] : order.order };
}

/** Kahn's algorithm, ties in spec order; the steps left over lie on or after a cycle. */
function topologicalOrder(ids: string[], deps: Map<string, Set<string>>): { order: string[]; cycle: string[] } {
  const order: string[] = [];
  const done = new Set<string>();
  let progressed = true;
  while (progressed) {
    progressed = false;
    for (const id of ids) {
      if (done.has(id)) continue;
      if ([...(deps.get(id) ?? [])].every((d) => done.has(d))) {
        done.add(id);
        order.push(id);
        progressed = true;
      }
    }
  }
  return { order, cycle: ids.filter((id) => !done.has(id)) };
}
