// `properties`: every MolecularProperties field (src/chem/properties, as POST /describe) for
// each molecule of a list or of an uploaded molecule set.
//
// Output (docs/jobs.md): result.json with the counts and, up to INLINE_ITEMS molecules, the
// per-molecule items; port `properties` with one JSON record per molecule (its properties and
// the main figures as record metrics); port `table` with one CSV of every molecule.
import { Type, type Static } from '@sinclair/typebox';
import type { MolecularProperties } from '../../chem/properties/schema.js';
import type { JobType, OutputRecord } from '../job-type.js';
import { linearEstimate } from './calibration.js';
import {
  chemPool,
  countLibrary,
  csvField,
  ErrorLog,
  failureCode,
  INLINE_ITEMS,
  inputSummary,
  libraryFields,
  loadLibrary,
  mapAsync,
  phase,
  runChunks,
  Spool,
  type CsvValue,
  type LibraryItem,
} from './molecule-jobs.js';
import { errorFields, InputSummary, labelFields, portsField, resultSchema } from './result-parts.js';

const Payload = Type.Object(libraryFields('The molecules to describe'), { additionalProperties: false });
type Payload = Static<typeof Payload>;

interface Row {
  index: number;
  id: string;
  name?: string;
  smiles: string;
  properties: MolecularProperties | null;
  error: string | null;
}

/** Record metrics (numbers only) of a described molecule. */
export function propertyMetrics(p: MolecularProperties): Record<string, number> {
  const m: Record<string, number> = {
    mw: p.mw,
    monoisotopic_mass: p.monoisotopic_mass,
    clogp: p.clogp,
    tpsa: p.tpsa,
    hba: p.hba,
    hbd: p.hbd,
    rotatable_bonds: p.rotatable_bonds,
    aromatic_rings: p.aromatic_rings,
    heavy_atoms: p.heavy_atoms,
    formal_charge: p.formal_charge,
    lipinski_violations: p.lipinski.violations.length,
    veber_violations: p.veber.violations.length,
    pains_alerts: p.alerts.pains.length,
    brenk_alerts: p.alerts.brenk.length,
  };
  if (typeof p.qed === 'number') m.qed = p.qed;
  return m;
}

const CSV_COLUMNS = [
  'index',
  'id',
  'name',
  'smiles',
  'error',
  'formula',
  'mw',
  'monoisotopic_mass',
  'clogp',
  'tpsa',
  'hba',
  'hbd',
  'rotatable_bonds',
  'aromatic_rings',
  'heavy_atoms',
  'formal_charge',
  'qed',
  'lipinski_pass',
  'lipinski_violations',
  'veber_pass',
  'veber_violations',
  'pains',
  'brenk',
] as const;

function csvRow(r: Row): string {
  const p = r.properties;
  const v: Record<(typeof CSV_COLUMNS)[number], CsvValue> = {
    index: r.index,
    id: r.id,
    name: r.name ?? '',
    smiles: r.smiles,
    error: r.error ?? '',
    formula: p?.formula,
    mw: p?.mw,
    monoisotopic_mass: p?.monoisotopic_mass,
    clogp: p?.clogp,
    tpsa: p?.tpsa,
    hba: p?.hba,
    hbd: p?.hbd,
    rotatable_bonds: p?.rotatable_bonds,
    aromatic_rings: p?.aromatic_rings,
    heavy_atoms: p?.heavy_atoms,
    formal_charge: p?.formal_charge,
    qed: p?.qed,
    lipinski_pass: p ? p.lipinski.pass : '',
    lipinski_violations: p?.lipinski.violations.join(';'),
    veber_pass: p ? p.veber.pass : '',
    veber_violations: p?.veber.violations.join(';'),
    pains: p?.alerts.pains.join(';'),
    brenk: p?.alerts.brenk.join(';'),
  };
  return `${CSV_COLUMNS.map((c) => csvField(v[c])).join(',')}\r\n`;
}

const Count = Type.Integer({ minimum: 0 });

/** GET /jobs/result of a properties job. */
const Result = resultSchema(
  'properties',
  {
    input: InputSummary,
    summary: Type.Object({ molecules: Count, described: Count, unparseable: Count, too_large: Count, failed: Count }, { additionalProperties: false }),
    items: Type.Union(
      [
        Type.Array(
          Type.Object(
            { ...labelFields, properties: Type.Union([Type.Ref('MolecularProperties'), Type.Null()]), error: Type.Union([Type.String(), Type.Null()]) },
            { additionalProperties: false },
          ),
        ),
        Type.Null(),
      ],
      { description: 'One per molecule in input order, up to 1,000 molecules (else null: the ports have them)' },
    ),
    items_inline: Type.Boolean(),
    ports: portsField(['properties', 'table']),
    ...errorFields,
  },
  'properties: every molecular property of each molecule (as POST /describe)',
);

export const propertiesJob: JobType<Payload> = {
  name: 'properties',
  ports: { inputs: { molecules: { type: 'molecules', field: 'input_artifact_id', portField: 'port', inline: 'smiles' } }, outputs: { properties: 'json', table: 'csv' } },
  runsOn: 'chem-pool',
  methods: ['smiles', 'clogp', 'tpsa', 'qed', 'lipinski', 'veber', 'pains', 'brenk', 'inchi', 'inchikey'],
  summary: 'All MolecularProperties (as POST /describe) of each molecule of a SMILES list or an uploaded molecule set',
  payload: Payload,
  result: Result,

  async estimate(p, ctx) {
    const { n, source } = await countLibrary(p, ctx);
    const costs = source === 'artifact' ? (['readArtifact', 'describe', 'writeRecord'] as const) : (['describe', 'writeRecord'] as const);
    return {
      expectedRuntimeSec: linearEstimate(n, [...costs], ctx.resource.vcpu),
      assumptions: { molecules: n, input: source, model: 'overhead + molecules x per-molecule cost (docs/jobs.md)' },
    };
  },

  async run(ctx) {
    const pool = chemPool(ctx);
    const errors = new ErrorLog();
    const items = await loadLibrary(ctx, pool, errors);
    const total = items.length;
    const spool = Spool.create<Row>(ctx.signal);
    const csv: string[] = [`${CSV_COLUMNS.join(',')}\r\n`];
    const inline: Row[] = [];
    let described = 0;
    const add = async (r: Row) => {
      await spool.write(r);
      csv.push(csvRow(r));
      if (total <= INLINE_ITEMS) inline.push(r);
    };
    try {
      await runChunks(
        ctx,
        pool,
        'describe',
        items,
        (t) => t.smiles,
        { key: false },
        async (t, out) => {
          if (!out) await add(row(t, null, t.error!));
          else if (out.ok && out.value.properties) {
            described++;
            await add(row(t, out.value.properties, null));
          } else {
            const code = out.ok ? (out.value.error ?? 'describe_failed') : failureCode(out);
            errors.add(t, code, out.ok ? undefined : out.message);
            await add(row(t, null, code));
          }
        },
        phase(ctx, total, 0.05, 0.95, 'described'),
      );
    } catch (err) {
      spool.discard();
      throw err;
    }
    ctx.progress(0.95, 'writing the result');
    const counts = errors.counts;
    const result = {
      job_type: 'properties',
      input: inputSummary(ctx.payload, total),
      summary: {
        molecules: total,
        described,
        unparseable: counts.unparseable ?? 0,
        too_large: counts.too_large ?? 0,
        failed: errors.total - (counts.unparseable ?? 0) - (counts.too_large ?? 0),
      },
      items: total <= INLINE_ITEMS ? inline : null,
      items_inline: total <= INLINE_ITEMS,
      ports: { properties: 'one JSON record per molecule (id = molecule id), metrics mw, clogp, tpsa, qed, ...', table: 'properties.csv: one row per molecule' },
      ...errors.toJSON(),
    };
    return {
      result,
      ports: {
        properties: {
          format: 'json',
          kind: 'properties',
          records: mapAsync(spool.read(), (r): OutputRecord => ({
            id: r.id,
            files: { primary: { name: 'properties.json', content: JSON.stringify(r), contentType: 'application/json' } },
            ...(r.properties ? { metrics: propertyMetrics(r.properties) } : {}),
          })),
        },
        table: {
          format: 'csv',
          kind: 'table',
          records: [{ id: 'properties.csv', files: { primary: { name: 'properties.csv', content: Buffer.from(csv.join(''), 'utf8'), contentType: 'text/csv' } } }],
        },
      },
    };
  },
};

function row(t: LibraryItem, properties: MolecularProperties | null, error: string | null): Row {
  return { index: t.index, id: t.id, ...(t.name ? { name: t.name } : {}), smiles: t.smiles || (t.original ?? ''), properties, error };
}
