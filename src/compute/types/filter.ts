// `filter`: keeps the molecules whose properties (as POST /describe) satisfy an expression such
// as `mw <= 500 and clogp < 5 and not pains` (src/compute/expression.ts: parsed by jsep, never
// evaluated by JavaScript). For workflows and on its own.
//
// Output (docs/jobs.md): result.json with the counts and the kept molecules (up to
// INLINE_ITEMS); port `molecules`, the kept molecules as a molecule set (SMILES records with the
// property figures as metrics), usable as input_artifact_id with port "molecules".
import { Type, type Static } from '@sinclair/typebox';
import type { MolecularProperties } from '../../chem/properties/schema.js';
import { invalid } from '../../errors.js';
import { compileExpression, ExpressionError, type Env, type ValueType } from '../expression.js';
import { INLINE_ITEMS, inputSummary, libraryEstimate, libraryFields, libraryJob, loadLibrary, moleculeSet, smilesRecord } from './molecule-jobs.js';
import { propertyMetrics } from './properties.js';
import { InputSummary, labelFields } from './result-parts.js';

/** The names an expression may use, and their types. */
export const FILTER_NAMES: Readonly<Record<string, ValueType>> = {
  mw: 'number',
  monoisotopic_mass: 'number',
  clogp: 'number',
  tpsa: 'number',
  hba: 'number',
  hbd: 'number',
  rotatable_bonds: 'number',
  aromatic_rings: 'number',
  heavy_atoms: 'number',
  formal_charge: 'number',
  qed: 'number',
  lipinski_violations: 'number',
  veber_violations: 'number',
  pains_alerts: 'number',
  brenk_alerts: 'number',
  pains: 'boolean',
  brenk: 'boolean',
  lipinski: 'boolean',
  veber: 'boolean',
};

const Payload = Type.Object(
  {
    ...libraryFields('The molecules to filter'),
    expression: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: `Kept when true, e.g. "mw <= 500 and clogp < 5 and not pains". Names: ${Object.keys(FILTER_NAMES).join(', ')}; pains, brenk: any alert; lipinski, veber: the rule passes. Operators: < <= > >= == != + - * / and or not, parentheses`,
    }),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

function compile(expression: string) {
  try {
    return compileExpression(expression, FILTER_NAMES);
  } catch (err) {
    if (err instanceof ExpressionError)
      throw invalid(['expression'], err.index === null ? err.message : `${err.message} (at character ${err.index + 1})`, expression, 'expression_invalid');
    throw err;
  }
}

function envOf(p: MolecularProperties): Env {
  return {
    ...propertyMetrics(p),
    qed: typeof p.qed === 'number' ? p.qed : null,
    pains: p.alerts.pains.length > 0,
    brenk: p.alerts.brenk.length > 0,
    lipinski: p.lipinski.pass,
    veber: p.veber.pass,
  };
}

interface Kept {
  index: number;
  id: string;
  name?: string;
  smiles: string;
  metrics: Record<string, number>;
}

const Count = Type.Integer({ minimum: 0 });

/** GET /jobs/result of a filter job: `job_type`, these fields, then its ports and errors (libraryJob). */
const ResultFields = {
  input: InputSummary,
  expression: Type.String(),
  summary: Type.Object({ molecules: Count, kept: Count, dropped: Count, errors: Count }, { additionalProperties: false }),
  kept: Type.Union(
    [
      Type.Array(
        Type.Object(
          { ...labelFields, metrics: Type.Record(Type.String(), Type.Number(), { description: 'The numeric properties (mw, clogp, tpsa, qed, ...)' }) },
          { additionalProperties: false },
        ),
      ),
      Type.Null(),
    ],
    { description: 'The kept molecules in input order, when at most 1,000 (else null: the port has them)' },
  ),
};

export const filterJob = libraryJob<Payload>(
  'filter',
  { molecules: 'molecules' },
  {
    methods: ['smiles', 'clogp', 'tpsa', 'qed', 'lipinski', 'veber', 'pains', 'brenk'],
    summary: 'Keep the molecules whose properties satisfy an expression, e.g. "mw <= 500 and clogp < 5 and not pains"',
    payload: Payload,
    result: { fields: ResultFields, description: 'filter: the molecules whose properties satisfy the expression' },

    async estimate(p, ctx) {
      compile(p.expression);
      return libraryEstimate(p, ctx, ['describe', 'writeRecord']);
    },

    async run(ctx) {
      const keep = compile(ctx.payload.expression);
      const library = await loadLibrary(ctx);
      const { items, errors } = library;
      const kept: Kept[] = [];
      await library.run('describe', { key: false }, 'filtered', (t, out) => {
        if (!out) return;
        if (out.ok && out.value.properties) {
          if (keep(envOf(out.value.properties))) kept.push({ index: t.index, id: t.id, name: t.name, smiles: t.smiles, metrics: propertyMetrics(out.value.properties) });
        } else errors.failed(t, out, 'describe_failed');
      });
      return {
        result: {
          job_type: 'filter',
          input: inputSummary(ctx.payload, items.length),
          expression: ctx.payload.expression,
          summary: { molecules: items.length, kept: kept.length, dropped: items.length - kept.length - errors.total, errors: errors.total },
          kept: kept.length <= INLINE_ITEMS ? kept : null,
          ports: { molecules: 'the kept molecules as a molecule set (SMILES records, property metrics): usable as input_artifact_id with port "molecules"' },
          ...errors.toJSON(),
        },
        ports: {
          molecules: moleculeSet(kept.map((k) => smilesRecord(k, { ...k.metrics, index: k.index }))),
        },
      };
    },
  },
);
