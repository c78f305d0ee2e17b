// `substructure_search`: the molecules of a library that contain a query substructure.
//
// The query is SMARTS or SMILES (`query_format`, default `auto`: read as SMARTS with RDKit
// MolFromSmarts / MinimalLib get_qmol first, and as SMILES only when it is not valid SMARTS).
// Most SMILES are valid SMARTS, and read as SMARTS they match as written: `c1ccccc1O` matches
// phenols, but a Kekulé SMILES such as `C1=CC=CC=C1` read as SMARTS asks for aliphatic
// carbons and double bonds and matches no aromatic ring; send such queries with
// query_format "smiles" (RDKit then aromatizes the query, as MolFromSmiles).
//
// A query that is not even shaped like SMARTS (unbalanced brackets or branches, an unclosed
// ring bond) is a 422 at payload.query at submit. One that is shaped right but that RDKit
// refuses is found at the start of the run, before any molecule: the job ends `error`
// (charged its few milliseconds of runtime).
//
// Output (docs/jobs.md): result.json with the matching molecules (atom and bond indices of
// the first match, number of unique matches), the counts and the per-item errors; port
// `matches`, a molecule set (SMILES records, metric match_count, and a match.json file per
// record) that another job can take as input_artifact_id + port "matches".
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.js';
import { MAX_QUERY_CHARS } from '../../chem/jobs/handlers.js';
import { smilesShapeError } from '../../chem/formats/smiles-shape.js';
import { JobInputError } from '../job-type.js';
import { chemPool, inputSummary, libraryEstimate, libraryFields, libraryJob, loadLibrary, moleculeSet, smartsShapeError, smilesRecord } from './molecule-jobs.js';
import { InputSummary, labelFields } from './result-parts.js';

/** Matching molecules listed in result.json at most (the port has all of them). */
export const MAX_LISTED_MATCHES = 10_000;

const Payload = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: MAX_QUERY_CHARS, description: 'The substructure, as SMARTS or SMILES (see query_format)' }),
    query_format: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal('smarts'), Type.Literal('smiles')], {
        default: 'auto',
        description:
          'How the query is read: `auto` (default) SMARTS first, SMILES when it is not valid SMARTS; `smarts`; `smiles` (aromatized as a molecule: use it for Kekulé SMILES)',
      }),
    ),
    ...libraryFields('The library to search'),
    use_chirality: Type.Optional(Type.Boolean({ default: false, description: 'Honour tetrahedral stereo in matching (RDKit useChirality, default false)' })),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload>;

interface Match {
  index: number;
  id: string;
  name?: string;
  smiles: string;
  match_count: number;
  atoms: number[];
  bonds: number[];
}

const Count = Type.Integer({ minimum: 0 });

/** GET /jobs/result of a substructure_search job: `job_type`, these fields, then its ports and errors (libraryJob). */
const ResultFields = {
  query: Type.Object(
    { text: Type.String(), read_as: Type.Union([Type.Literal('smarts'), Type.Literal('smiles')]), atoms: Type.Integer(), use_chirality: Type.Boolean() },
    { additionalProperties: false },
  ),
  input: InputSummary,
  summary: Type.Object({ molecules: Count, screened: Count, matched: Count, unparseable: Count, too_large: Count, failed: Count }, { additionalProperties: false }),
  matches: Type.Array(
    Type.Object(
      {
        ...labelFields,
        match_count: Type.Integer({ minimum: 1 }),
        atoms: Type.Array(Type.Integer(), { description: "The first match's atom indices, in the query's atom order" }),
        bonds: Type.Array(Type.Integer()),
      },
      { additionalProperties: false },
    ),
    { description: 'In input order, the first 10,000 (the port has all)' },
  ),
  matches_listed: Count,
};

export const substructureSearchJob = libraryJob<Payload>(
  'substructure_search',
  { matches: 'molecules' },
  {
    methods: ['smiles'],
    summary: 'Molecules of a library that contain a substructure given as SMARTS or SMILES, with the atoms of the first match',
    payload: Payload,
    result: { fields: ResultFields, description: 'substructure_search: the library molecules that contain the query' },

    async estimate(p, ctx) {
      const format = p.query_format ?? 'auto';
      const bad = format === 'smiles' ? smilesShapeError(p.query) : smartsShapeError(p.query);
      if (bad) throw invalid(['query'], `not a valid ${format === 'smiles' ? 'SMILES' : 'SMARTS'}: ${bad}`, p.query);
      return libraryEstimate(p, ctx, ['substructure', 'writeRecord'], {
        model: 'overhead + molecules x per-molecule cost (docs/jobs.md); every molecule may match and be written; a complex query takes longer',
      });
    },

    async run(ctx) {
      const p = ctx.payload;
      const pool = chemPool(ctx);
      const q = await pool.run('substructure_query', p.query, { format: p.query_format ?? 'auto' });
      if (!q.ok) throw new Error(`reading the query failed: ${q.message}`);
      if (!q.value.format) throw new JobInputError(`query: ${q.value.error}`);
      const format = q.value.format;
      const library = await loadLibrary(ctx);
      const { items, errors } = library;
      const total = items.length;
      const matches: Match[] = [];
      let screened = 0;
      await library.run('substructure_match', { query: p.query, format, useChirality: p.use_chirality ?? false }, 'screened', (t, out) => {
        if (!out) return;
        if (out.ok && !out.value.error) {
          screened++;
          const v = out.value;
          if (v.matched)
            matches.push({ index: t.index, id: t.id, ...(t.name ? { name: t.name } : {}), smiles: t.smiles, match_count: v.count, atoms: v.atoms ?? [], bonds: v.bonds ?? [] });
          return;
        }
        errors.failed(t, out);
      });
      return {
        result: {
          job_type: 'substructure_search',
          query: { text: p.query, read_as: format, atoms: q.value.atoms, use_chirality: p.use_chirality ?? false },
          input: inputSummary(p, total),
          summary: { molecules: total, screened, matched: matches.length, ...errors.breakdown() },
          matches: matches.slice(0, MAX_LISTED_MATCHES),
          matches_listed: Math.min(matches.length, MAX_LISTED_MATCHES),
          ports: {
            matches: 'the matching molecules as a molecule set (SMILES records, metric match_count, match.json with the atoms): usable as input_artifact_id with port "matches"',
          },
          ...errors.toJSON(),
        },
        ports: {
          matches: moleculeSet(
            matches.map((m) =>
              smilesRecord(
                m,
                { match_count: m.match_count, index: m.index },
                { match: { name: 'match.json', content: JSON.stringify({ atoms: m.atoms, bonds: m.bonds, match_count: m.match_count }), contentType: 'application/json' } },
              ),
            ),
          ),
        },
      };
    },
  },
);
