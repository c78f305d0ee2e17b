// The values of a workflow's inputs, as a run start and an estimate read them (docs/workflows.md,
// "Runs" and "Estimate"): each declared input's value, given or default, checked against its
// type; molecule sets counted. Issues are located at ["inputs", NAME], relative to the request.
import { AppError, invalidInput, notFound, type Issue } from '../../errors.js';
import { inputValueProblem, own, parseRef, type WorkflowSpec } from '../../workflows/spec.js';
import { isUuid } from '../../validation.js';
import type { ArtifactService } from '../artifacts/service.js';

export interface ResolvedInputs {
  /** Each declared input's value (a molecules input: its artifact id or SMILES list). */
  values: Record<string, unknown>;
  /** The size of each molecules input's set. */
  molecules: number[];
}

/** Every declared input needs a value or a default; unknown and mistyped ones are 422s at ["inputs", NAME]; an artifact that is not the user's is a 404. */
export async function resolveInputs(
  artifacts: Pick<ArtifactService, 'countMolecules'>,
  userId: string,
  spec: WorkflowSpec,
  given: Record<string, unknown>,
): Promise<ResolvedInputs> {
  const declared = spec.inputs ?? {};
  const issues: Issue[] = [];
  const values: Record<string, unknown> = {};
  const molecules: number[] = [];
  for (const name of Object.keys(given))
    if (!Object.hasOwn(declared, name))
      issues.push({
        type: 'unknown',
        loc: ['inputs', name],
        msg: `the workflow has no input "${name}"; its inputs are ${Object.keys(declared).join(', ') || 'none'}`,
        input: given[name],
      });
  for (const [name, d] of Object.entries(declared)) {
    const v = Object.hasOwn(given, name) ? given[name] : d.default;
    if (v === undefined) {
      issues.push({ type: 'missing', loc: ['inputs', name], msg: `input "${name}" (${d.type}) is required: it has no default`, input: null });
      continue;
    }
    const problem = inputValueProblem(d.type, v);
    if (problem) {
      issues.push({ type: 'type_error', loc: ['inputs', name], msg: problem, input: v ?? null });
      continue;
    }
    if (d.type === 'molecules') {
      if (typeof v === 'string' && isUuid(v)) {
        const n = await artifacts.countMolecules(userId, v).catch((err: unknown) => {
          if (err instanceof AppError && err.code === 'not-found') throw notFound(`artifact ${v}`);
          if (err instanceof AppError) throw err.at('inputs', name);
          throw err;
        });
        molecules.push(n);
      } else molecules.push((v as unknown[]).length);
    }
    values[name] = v;
  }
  if (issues.length) throw invalidInput(issues);
  return { values, molecules };
}

/**
 * The spec with the run's values as the defaults of its inputs, so each step's rules see what it
 * will run with: a molecules input given as a SMILES list too (its steps are priced over those
 * structures), one given as an artifact id keeps its stand-in (the set is counted).
 */
export function withValues(spec: WorkflowSpec, values: Record<string, unknown>): WorkflowSpec {
  return {
    ...spec,
    inputs: Object.fromEntries(Object.entries(spec.inputs ?? {}).map(([k, d]) => [k, d.type === 'molecules' && !Array.isArray(values[k]) ? d : { ...d, default: values[k] }])),
  };
}

/**
 * Issues found with the run's values in place, where the caller sent the value: a step param
 * taken from an input ("$inputs.NAME") is reported at ["inputs", NAME], the rest where they are.
 */
export function atInputs(spec: WorkflowSpec, issues: Issue[], given: Record<string, unknown>): Issue[] {
  return issues.map((issue) => {
    const [root, steps, i, params, k] = issue.loc;
    if (root !== 'spec' || steps !== 'steps' || params !== 'params' || typeof i !== 'number' || typeof k !== 'string') return issue;
    const step = spec.steps[i];
    const v = own(step?.params, k);
    const ref = typeof v === 'string' ? parseRef(v) : null;
    if (ref?.kind !== 'input' || !Object.hasOwn(given, ref.name)) return issue;
    return { ...issue, loc: ['inputs', ref.name, ...issue.loc.slice(5)], msg: `${issue.msg} (input "${ref.name}" goes to param ${k} of step ${step!.id})` };
  });
}
