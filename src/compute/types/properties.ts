// `properties`: every MolecularProperties field (src/chem/properties, as POST /describe) for
// each molecule of a list or of an uploaded molecule set.
//
// Output (docs/jobs.md): result.json with the counts and, up to INLINE_ITEMS molecules, the
// per-molecule items; port `properties` with one JSON record per molecule (its properties and
// the main figures as record metrics); port `table` with one CSV of every molecule.
import { Type, type Static } from '@sinclair/typebox';
import type { MolecularProperties } from '../../chem/properties/schema.js';
import type { OutputRecord } from '../job-type.js';
import {
  csvField,
  INLINE_ITEMS,
  inputSummary,
  libraryEstimate,
  libraryFields,
  libraryJob,
  loadLibrary,
  mapAsync,
  Spool,
  type CsvValue,
  type LibraryItem,
} from './molecule-jobs.js';
import { InputSummary, labelFields } from './result-parts.js';

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

/** GET /jobs/result of a properties job: `job_type`, these fields, then its ports and errors (libraryJob). */
const ResultFields = {
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
};

export const propertiesJob = libraryJob<Payload>(
  'properties',
  { properties: 'json', table: 'csv' },
  {
    methods: ['smiles', 'clogp', 'tpsa', 'qed', 'lipinski', 'veber', 'pains', 'brenk', 'inchi', 'inchikey'],
    summary: 'All MolecularProperties (as POST /describe) of each molecule of a SMILES list or an uploaded molecule set',
    payload: Payload,
    result: { fields: ResultFields, description: 'properties: every molecular property of each molecule (as POST /describe)' },

    estimate: (p, ctx) => libraryEstimate(p, ctx, ['describe', 'writeRecord']),

    async run(ctx) {
      const library = await loadLibrary(ctx);
      const { items, errors } = library;
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
        await library.run('describe', { key: false }, 'described', async (t, out) => {
          if (!out) await add(row(t, null, t.error!));
          else if (out.ok && out.value.properties) {
            described++;
            await add(row(t, out.value.properties, null));
          } else await add(row(t, null, errors.failed(t, out, 'describe_failed')));
        });
      } catch (err) {
        spool.discard();
        throw err;
      }
      ctx.progress(0.95, 'writing the result');
      const result = {
        job_type: 'properties',
        input: inputSummary(ctx.payload, total),
        summary: { molecules: total, described, ...errors.breakdown() },
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
  },
);

function row(t: LibraryItem, properties: MolecularProperties | null, error: string | null): Row {
  return { index: t.index, id: t.id, ...(t.name ? { name: t.name } : {}), smiles: t.smiles || (t.original ?? ''), properties, error };
}
