// `profile_table` (docs/workflows.md, "Templates"): one table row per molecule joining the results
// of jobs run on the same molecules: a properties job's key columns, a pka job's charge state, a
// tautomers job's main tautomer, a bde job's weakest C-H bond and a reactivity job's top Fukui
// sites (each source optional). A workflow step binds each input port to a step's `result`; the
// job reads those result documents (the caller's own) and lines their items up by index, each a
// molecule of the same input in the same order (their record ids must agree).
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.js';
import { readMolblockAtoms } from '../../engines/molblock.js';
import { JobInputError, type InputPort, type JobType } from '../job-type.js';
import { csvField, type CsvValue } from './molecule-jobs.js';

/** The job types whose results the table joins, in its column order. */
export const PROFILE_SOURCES = ['properties', 'pka', 'tautomers', 'bde', 'reactivity'] as const;
type Source = (typeof PROFILE_SOURCES)[number];
const field = (s: Source) => `${s}_artifact_id` as const;

const ArtifactId = (s: Source) =>
  Type.Optional(Type.String({ format: 'uuid', description: `The result artifact of a ${s} job on the molecules (a workflow step binds it to that step's result)` }));

const Payload = Type.Object(
  {
    properties_artifact_id: ArtifactId('properties'),
    pka_artifact_id: ArtifactId('pka'),
    tautomers_artifact_id: ArtifactId('tautomers'),
    bde_artifact_id: ArtifactId('bde'),
    reactivity_artifact_id: ArtifactId('reactivity'),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

/** The properties job's columns the table keeps. */
const PROPERTY_COLUMNS = ['formula', 'mw', 'clogp', 'tpsa', 'hbd', 'hba', 'rotatable_bonds', 'qed', 'lipinski_pass'] as const;

/** Each source's columns, after index, id, name, smiles and error. */
const COLUMNS: Record<Source, readonly string[]> = {
  properties: PROPERTY_COLUMNS,
  pka: ['ph', 'dominant_smiles', 'dominant_charge', 'pka_sites'],
  tautomers: ['main_tautomer', 'main_tautomer_fraction', 'tautomers'],
  bde: ['weakest_ch_bond', 'weakest_ch_bde_kcal_mol'],
  reactivity: ['top_f_plus_atom', 'top_f_plus', 'top_f_minus_atom', 'top_f_minus'],
};

const Num = Type.Union([Type.Number(), Type.Null()]);
const Str = Type.Union([Type.String(), Type.Null()]);
const Int = Type.Union([Type.Integer(), Type.Null()]);
const Row = Type.Object(
  {
    index: Type.Integer({ description: 'Position in the input (0-based)' }),
    id: Type.String(),
    name: Str,
    smiles: Str,
    error: Type.Union([Type.String(), Type.Null()], { description: 'null, or each source whose item failed: "pka: radical (...); bde: ..."' }),
    formula: Type.Optional(Str),
    mw: Type.Optional(Num),
    clogp: Type.Optional(Num),
    tpsa: Type.Optional(Num),
    hbd: Type.Optional(Int),
    hba: Type.Optional(Int),
    rotatable_bonds: Type.Optional(Int),
    qed: Type.Optional(Num),
    lipinski_pass: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    ph: Type.Optional(Num),
    dominant_smiles: Type.Optional(Str),
    dominant_charge: Type.Optional(Int),
    pka_sites: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Each site as "<element><atom index> <acid|base> <pKa>", separated by "; "' })),
    main_tautomer: Type.Optional(Str),
    main_tautomer_fraction: Type.Optional(Num),
    tautomers: Type.Optional(Int),
    weakest_ch_bond: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'The weakest C-H bond as "<C>-<H>": its atoms, 0-based (the bde job\'s atoms)' })),
    weakest_ch_bde_kcal_mol: Type.Optional(Num),
    top_f_plus_atom: Type.Optional(Int),
    top_f_plus: Type.Optional(Num),
    top_f_minus_atom: Type.Optional(Int),
    top_f_minus: Type.Optional(Num),
  },
  { additionalProperties: false, description: "One molecule's row: the sources' columns (a source not given has none)" },
);

const Result = Type.Object(
  {
    job_type: Type.Literal('profile_table'),
    sources: Type.Array(Type.String(), { description: 'The job types joined, in column order' }),
    columns: Type.Array(Type.String(), { description: "The table's columns (the CSV's header)" }),
    summary: Type.Object({ molecules: Type.Integer(), complete: Type.Integer({ description: 'Rows without an error' }) }, { additionalProperties: false }),
    items: Type.Array(Row, { description: 'One row per molecule, in input order' }),
    ports: Type.Record(Type.String(), Type.String()),
  },
  { additionalProperties: false, description: 'profile_table: one row per molecule joining the results of properties, pka, tautomers, bde and reactivity jobs' },
);

type Doc = Record<string, unknown>;
type Item = Record<string, unknown>;
const isObj = (x: unknown): x is Doc => typeof x === 'object' && x !== null && !Array.isArray(x);
const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const str = (x: unknown) => (typeof x === 'string' ? x : null);
const int = (x: unknown) => (Number.isSafeInteger(x) ? (x as number) : null);
/** A scalar as text (an item's id, error code, detail); '' for anything else. */
const text = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? String(x) : '');
const given = (p: Payload) => PROFILE_SOURCES.filter((s) => typeof p[field(s)] === 'string');

/** A source's columns of one item (the item's error leaves them empty). */
function cells(source: Source, item: Item, doc: Doc): Record<string, unknown> {
  if (item.error) return {};
  switch (source) {
    case 'properties': {
      const p = isObj(item.properties) ? item.properties : {};
      const lipinski = isObj(p.lipinski) ? p.lipinski.pass : null;
      return {
        formula: str(p.formula),
        mw: num(p.mw),
        clogp: num(p.clogp),
        tpsa: num(p.tpsa),
        hbd: int(p.hbd),
        hba: int(p.hba),
        rotatable_bonds: int(p.rotatable_bonds),
        qed: num(p.qed),
        lipinski_pass: typeof lipinski === 'boolean' ? lipinski : null,
      };
    }
    case 'pka': {
      const sites = (Array.isArray(item.sites) ? item.sites : []).filter(isObj);
      const listed = sites.map((s) => `${text(s.element)}${text(s.atom_index)} ${text(s.kind)} ${num(s.pka) === null ? 'n/a' : text(s.pka)}`).join('; ');
      return { ph: num(doc.ph), dominant_smiles: str(item.dominant_smiles), dominant_charge: int(item.dominant_charge), pka_sites: listed || null };
    }
    case 'tautomers': {
      const best = (Array.isArray(item.tautomers) ? item.tautomers : []).find(isObj);
      return { main_tautomer: str(best?.smiles), main_tautomer_fraction: num(best?.fraction), tautomers: int(item.count) };
    }
    case 'bde': {
      // Weakest first (the bde job's order); the first C-H of them.
      const ch = (Array.isArray(item.bonds) ? item.bonds : []).filter(isObj).find((b) => Array.isArray(b.elements) && [...(b.elements as string[])].sort().join('') === 'CH');
      if (!ch) return { weakest_ch_bond: null, weakest_ch_bde_kcal_mol: null };
      const atoms = ch.atoms as number[];
      const carbonFirst = (ch.elements as string[])[0] === 'C' ? atoms : [atoms[1]!, atoms[0]!];
      return { weakest_ch_bond: carbonFirst.join('-'), weakest_ch_bde_kcal_mol: num(ch.bde_kcal_mol) };
    }
    case 'reactivity':
      return topFukui(item);
  }
}

/** The heavy atoms with the largest f+ (where a nucleophile attacks) and f- (an electrophile); hydrogens only when the structure is unknown. */
function topFukui(item: Item): Record<string, unknown> {
  let heavy: ((i: number) => boolean) | null = null;
  if (typeof item.molblock === 'string') {
    try {
      const { symbols } = readMolblockAtoms(item.molblock);
      heavy = (i) => symbols[i] !== undefined && symbols[i] !== 'H';
    } catch {
      heavy = null;
    }
  }
  const sites = (Array.isArray(item.fukui) ? item.fukui : []).filter(isObj).filter((f) => Number.isSafeInteger(f.atom_index) && (!heavy || heavy(f.atom_index as number)));
  const top = (key: 'f_plus' | 'f_minus') =>
    sites.reduce<Item | null>((best, f) => (num(f[key]) !== null && (best === null || (f[key] as number) > (best[key] as number)) ? f : best), null);
  const plus = top('f_plus');
  const minus = top('f_minus');
  return { top_f_plus_atom: int(plus?.atom_index), top_f_plus: num(plus?.f_plus), top_f_minus_atom: int(minus?.atom_index), top_f_minus: num(minus?.f_minus) };
}

const INPUTS = Object.fromEntries(PROFILE_SOURCES.map((s) => [s, { type: 'json', field: field(s) } satisfies InputPort]));

export const profileTableJob: JobType<Payload> = {
  name: 'profile_table',
  runsOn: 'event-loop',
  methods: [],
  summary:
    "One table row per molecule from the results of properties, pka, tautomers, bde and reactivity jobs on the same molecules (a workflow step: the profile template's table)",
  payload: Payload,
  result: Result,
  ports: { inputs: INPUTS, outputs: { table: 'csv' } },
  async estimate(p, ctx) {
    const sources = given(p);
    if (!sources.length) throw invalid([], `give at least one of ${PROFILE_SOURCES.map(field).join(', ')}`, p, 'missing');
    // At submit the results are read (the caller's own, of the right job type); a workflow's estimate has none yet.
    if (ctx.readResult)
      for (const s of sources) {
        const doc = await ctx.readResult(p[field(s)]!).catch(() => null);
        if (!isObj(doc)) throw invalid([field(s)], `no result of yours has this artifact id`, p[field(s)], 'not_found');
        if (doc.job_type !== s) throw invalid([field(s)], `this is a ${String(doc.job_type)} job's result, not a ${s} job's`, p[field(s)], 'job_type');
      }
    return { expectedRuntimeSec: 1 + sources.length, assumptions: { sources, model: '1 s + 1 s per result read' } };
  },
  async run(ctx) {
    const sources = given(ctx.payload);
    const docs = new Map<Source, Doc>();
    for (const [k, s] of sources.entries()) {
      ctx.progress(k / (sources.length + 1), `reading the ${s} result`);
      const doc = await ctx.readResult(ctx.payload[field(s)]!).catch((err: unknown) => {
        throw new JobInputError(`the ${s} result cannot be read: ${err instanceof Error ? err.message : String(err)}`);
      });
      if (!isObj(doc) || doc.job_type !== s) throw new JobInputError(`${field(s)} is not a ${s} job's result`);
      if (!Array.isArray(doc.items)) throw new JobInputError(`the ${s} result has no items (a properties job lists them up to 1,000 molecules)`);
      docs.set(s, doc);
    }
    const counts = [...docs].map(([s, d]) => [s, (d.items as unknown[]).length] as const);
    if (new Set(counts.map(([, n]) => n)).size > 1) throw new JobInputError(`the results cover different molecules: ${counts.map(([s, n]) => `${s} ${n}`).join(', ')}`);
    const columns = ['index', 'id', 'name', 'smiles', 'error', ...sources.flatMap((s) => COLUMNS[s])];
    const rows = Array.from({ length: counts[0]?.[1] ?? 0 }, (_, i) => {
      const items = sources.map((s) => [s, (docs.get(s)!.items as unknown[])[i]] as const).map(([s, it]) => [s, isObj(it) ? it : {}] as const);
      const ids = new Set(items.map(([, it]) => text(it.id ?? i)));
      if (ids.size > 1) throw new JobInputError(`row ${i}: the results are of different molecules (record ids ${[...ids].join(', ')})`);
      // The molecule as given: a tautomers item's smiles is its main tautomer, so it is asked last.
      const first = [...items].sort(([a], [b]) => Number(a === 'tautomers') - Number(b === 'tautomers'))[0]![1];
      const row: Record<string, unknown> = {
        index: i,
        id: text(first.id ?? i),
        name: str(first.name),
        smiles: str(first.smiles),
        error: items.flatMap(([s, it]) => (it.error ? [`${s}: ${text(it.error)}${it.detail ? ` (${text(it.detail)})` : ''}`] : [])).join('; ') || null,
      };
      for (const [s, it] of items) Object.assign(row, Object.fromEntries(COLUMNS[s].map((c) => [c, null])), cells(s, it, docs.get(s)!));
      return row;
    });
    const csv = [columns, ...rows.map((r) => columns.map((c) => r[c] as CsvValue))].map((line) => `${line.map((v) => csvField(v as CsvValue)).join(',')}\r\n`).join('');
    ctx.progress(1, 'written');
    return {
      result: {
        job_type: 'profile_table',
        sources,
        columns,
        summary: { molecules: rows.length, complete: rows.filter((r) => r.error === null).length },
        items: rows,
        ports: { table: 'profile.csv: one row per molecule, the columns above' },
      },
      ports: {
        table: {
          format: 'csv',
          kind: 'table',
          records: [{ id: 'profile.csv', files: { primary: { name: 'profile.csv', content: Buffer.from(csv, 'utf8'), contentType: 'text/csv' } } }],
        },
      },
    };
  },
};
