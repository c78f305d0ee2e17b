// `conformers` (docs/engines.md, "Conformers"): a 3D conformer ensemble of
// each structure, optimised and ranked. Open Babel generates candidates (Confab's systematic
// search, with its genetic algorithm added when Confab cannot finish or cannot run), xtb
// optimises each with GFN-FF, and with GFN2 the ones GFN-FF keeps; the ensemble is pruned by
// energy window and heavy-atom RMSD and weighted by Boltzmann at the temperature. Result item:
// `conformers` [{molblock, energy_hartree, relative_kcal, boltzmann_weight}] lowest first; ports
// `structures` (every conformer), `lowest` (each structure's lowest), `table`, `logs`.
import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { OutputRecord, RunContext } from '../job-type.js';
import { checkAborted } from './molecule-jobs.js';
import { engineJob } from './kit/engine-job.js';
import { bondsKept, bondsOf, boltzmannWeights, KCAL_PER_HARTREE, pruneEnsembleAsync, rmsdContext, spread, type RmsdContext, type Vec3 } from '../../engines/qm/ensemble.js';
import { SOLVENTS } from '../../engines/qm/solvents.js';
import { structureFields, type QmPayload } from './kit/payload.js';
import { chargeAndSpin, qmEstimate } from './kit/qm.js';
import { conformerEstimate } from './kit/calibration.js';
import type { StructureInfoOutcome } from '../../chem/jobs/types.js';
import { engineOutput, runItems, type ItemOutput } from './kit/run.js';
import { checkStructure, loadStructures } from './kit/structures.js';
import { readMolblockAtoms, withCoords } from '../../engines/molblock.js';
import { prepare } from '../../engines/prepare.js';
import { ItemFailure, type EngineTools, type Prepared, type Structure } from '../../engines/tools.js';
import { qmMethods } from './optimize.js';
import { runXtb } from '../../engines/qm/xtb.js';
import { ConformersResult } from './kit/results.js';
import { suffixedRecordId } from '../../record-ids.js';

const Payload = Type.Object(
  {
    ...structureFields(),
    method: Type.Optional(
      Type.Union([Type.Literal('gfnff'), Type.Literal('gfn2')], {
        default: 'gfn2',
        description: 'gfnff: candidates optimised and ranked with GFN-FF; gfn2: pre-optimised with GFN-FF, then optimised and ranked with GFN2-xTB (xtb)',
      }),
    ),
    solvent: Type.Optional(
      Type.Union([Type.Union(Object.keys(SOLVENTS).map((s) => Type.Literal(s))), Type.Null()], { default: null, description: "xtb's ALPB implicit solvent; null: gas phase" }),
    ),
    charge: Type.Optional(Type.Integer({ minimum: -10, maximum: 10, description: "Total charge (default: each molecule's formal charge)" })),
    multiplicity: Type.Optional(Type.Integer({ minimum: 1, maximum: 7, description: 'Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons)' })),
    max_conformers: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'Conformers kept per structure at most (the lowest)' })),
    energy_window_kcal: Type.Optional(Type.Number({ minimum: 0, maximum: 100, default: 6, description: 'Conformers more than this above the lowest (kcal/mol) are dropped' })),
    rmsd_threshold: Type.Optional(
      Type.Number({
        minimum: 0.01,
        maximum: 5,
        default: 0.5,
        description: 'Å: a conformer within this heavy-atom RMSD (after superposition, symmetry-equivalent atoms matched) of a lower one is a duplicate',
      }),
    ),
    temperature_k: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000, default: 298.15, description: 'Temperature of the Boltzmann weights (K)' })),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload> & QmPayload;

/** Candidates generated per kept conformer asked for, and at most. */
export const CANDIDATES_PER_CONFORMER = 3;
export const MAX_CANDIDATES = 1_500;
/** Atoms (with hydrogens) a conformer search takes: fewer than one optimisation, as it runs hundreds. */
export const CONFORMER_MAX_ATOMS: Readonly<Record<'gfnff' | 'gfn2', number>> = { gfnff: 300, gfn2: 150 };
/** Confab tests at most this many torsion combinations per candidate asked for (between the bounds). */
const CONFAB_TESTED_PER_CANDIDATE = 10;
const CONFAB_TESTED = { min: 2_000, max: 20_000 };
/** Conformers of Open Babel's genetic algorithm, at most (its time grows faster than the count). */
const GA_MAX = 50;
/** A candidate generation, and one optimisation, may take this long. */
const GENERATE_MS = 10 * 60_000;
const PER_CALL_MS = 15 * 60_000;

interface Settings {
  method: 'gfnff' | 'gfn2';
  solvent: string | null;
  maxConformers: number;
  windowKcal: number;
  rmsdThreshold: number;
  temperatureK: number;
}

function settingsOf(p: Payload): Settings {
  return {
    method: p.method === 'gfnff' ? 'gfnff' : 'gfn2',
    solvent: p.solvent ?? null,
    maxConformers: p.max_conformers ?? 50,
    windowKcal: p.energy_window_kcal ?? 6,
    rmsdThreshold: p.rmsd_threshold ?? 0.5,
    temperatureK: p.temperature_k ?? 298.15,
  };
}

/** Candidates generated per structure. */
export function candidatesFor(maxConformers: number): number {
  return Math.min(MAX_CANDIDATES, CANDIDATES_PER_CONFORMER * maxConformers);
}

/** The GFN-FF stage of a GFN2 search keeps what lies within this window (GFN-FF's relative energies differ from GFN2's by a few kcal/mol). */
export function preWindowKcal(windowKcal: number): number {
  return 2 * windowKcal + 3;
}

/** At most this many GFN-FF minima go on to GFN2. */
export function preKeep(maxConformers: number): number {
  return Math.max(10, 2 * maxConformers);
}

/** The conformations of an SDF file that have the prepared structure's atoms in its order. */
function readConformations(file: string, symbols: string[]): Vec3[][] {
  if (!fs.existsSync(file)) return [];
  const out: Vec3[][] = [];
  let lines: string[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (line.trim() !== '$$$$') {
      lines.push(line);
      continue;
    }
    const atoms = readMolblockAtoms(lines.join('\n'));
    lines = [];
    if (atoms.symbols.length === symbols.length && atoms.symbols.every((s, i) => s === symbols[i]) && atoms.coords.every((c) => c.every(Number.isFinite))) out.push(atoms.coords);
  }
  return out;
}

export interface Generated {
  conformations: Vec3[][];
  /** `confab`, `confab+ga`, `ga` or `input` (neither gave a conformation). */
  generator: string;
  /** Torsion combinations Confab counted and tested (null when it did not run to the end). */
  enumerated: number | null;
  tested: number | null;
}

/**
 * Candidates with Open Babel, in the prepared structure's atom order: Confab (systematic over
 * its torsion library, diverse by RMSD, MMFF94 energy cutoff, the input conformation first);
 * when Confab tests only part of the combinations, or cannot run (no MMFF94 parameters),
 * the genetic algorithm (diverse by RMSD) adds its conformers. More than `count` are thinned
 * evenly; the input conformation is always one.
 */
export async function generateCandidates(tools: EngineTools, dir: string, s: Prepared, count: number, rmsdThreshold: number): Promise<Generated> {
  fs.writeFileSync(path.join(dir, 'start.mol'), `${s.molblock.replace(/\s*$/, '\n')}`);
  const run = async (args: string[]) => {
    try {
      return await tools.run('obabel', ['start.mol', ...args], dir, { timeoutMs: GENERATE_MS, threads: 1 });
    } catch (err) {
      if (err instanceof ItemFailure) return null; // its timeout: the other generator, or the input, still serve
      throw err;
    }
  };
  const tested = Math.min(CONFAB_TESTED.max, Math.max(CONFAB_TESTED.min, CONFAB_TESTED_PER_CANDIDATE * count));
  const rcutoff = Math.min(1, Math.max(0.1, rmsdThreshold));
  const confab = await run(['-O', 'confab.sdf', '--confab', '--original', '--verbose', '--conf', String(tested), '--rcutoff', String(rcutoff)]);
  const text = confab ? `${confab.stdout}\n${confab.stderr}` : '';
  const enumerated = /tot conformations = (\d+)/.exec(text);
  const testedN = /tot confs tested = (\d+)/.exec(text);
  const fromConfab = confab ? readConformations(path.join(dir, 'confab.sdf'), s.symbols) : [];
  const rigid = /number of rotatable bonds = 0\b/.test(text);
  const partial = !fromConfab.length || (!rigid && (!enumerated || !testedN || Number(enumerated[1]) > Number(testedN[1])));
  let fromGa: Vec3[][] = [];
  if (partial && count > 1) {
    const ga = await run(['-O', 'ga.sdf', '--conformer', '--nconf', String(Math.min(GA_MAX, count)), '--score', 'rmsd', '--writeconformers']);
    if (ga) fromGa = readConformations(path.join(dir, 'ga.sdf'), s.symbols);
  }
  // The input conformation first (Confab's --original), then the genetic algorithm's (diverse
  // over every torsion), then Confab's others thinned evenly.
  const first = fromConfab[0] ?? s.coords;
  const rest = fromConfab.slice(1);
  const ga = fromGa.slice(0, Math.max(0, count - 1));
  const conformations = [first, ...ga, ...spread(rest, count - 1 - ga.length)];
  const generator = fromConfab.length && fromGa.length ? 'confab+ga' : fromConfab.length ? 'confab' : fromGa.length ? 'ga' : 'input';
  return {
    conformations,
    generator,
    enumerated: enumerated && testedN ? Number(enumerated[1]) : null,
    tested: testedN ? Number(testedN[1]) : null,
  };
}

interface Optimized {
  energyHartree: number;
  coords: Vec3[];
  molblock: string;
}

/** Runs `fn` over `items`, `n` at a time, in order of start. */
async function pool<T>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
}

interface Stage {
  label: string;
  /** Fractions of the structure's share of progress this stage spans. */
  from: number;
  to: number;
}

/**
 * Optimises each conformation with `method` in its own directory, `tools.threads` at a time
 * on one thread each (small molecules gain more from parallel candidates than parallel
 * linear algebra). Failed optimisations and ones whose bonds broke are counted and left out.
 */
async function optimizeAll(
  ctx: RunContext<Payload>,
  tools: EngineTools,
  dir: string,
  s: Prepared,
  conformations: Vec3[][],
  o: { method: 'gfnff' | 'gfn2'; solvent: string | null; charge: number; multiplicity: number },
  report: (done: number, total: number) => void,
): Promise<{ ok: Optimized[]; failed: number; broken: number; lastFailure: ItemFailure | null }> {
  const single: EngineTools = { threads: 1, run: (engine, args, cwd, opts) => tools.run(engine, args, cwd, { ...opts, threads: 1 }) };
  const bonds = bondsOf(s.molblock);
  const ok: (Optimized | null)[] = new Array<Optimized | null>(conformations.length).fill(null);
  let failed = 0;
  let broken = 0;
  let done = 0;
  let lastFailure: ItemFailure | null = null;
  await pool(conformations, tools.threads, async (coords, i) => {
    checkAborted(ctx.signal);
    const sub = path.join(dir, `${o.method}-${i}`);
    fs.mkdirSync(sub, { recursive: true });
    try {
      const start: Prepared = { ...s, coords: coords.map((c) => [c[0], c[1], c[2]]), molblock: withCoords(s.molblock, coords) };
      const r = await runXtb(single, sub, start, { method: o.method, solvent: o.solvent, charge: o.charge, multiplicity: o.multiplicity, optimize: {}, timeoutMs: PER_CALL_MS });
      const final = readMolblockAtoms(r.molblock).coords;
      if (!bondsKept(bonds, s.coords, final)) broken++;
      else ok[i] = { energyHartree: r.energyHartree, coords: final, molblock: r.molblock };
    } catch (err) {
      if (!(err instanceof ItemFailure) || ctx.signal.aborted) throw err;
      failed++;
      lastFailure = err;
    } finally {
      fs.rmSync(sub, { recursive: true, force: true });
    }
    report(++done, conformations.length);
  });
  return { ok: ok.filter((x): x is Optimized => x !== null), failed, broken, lastFailure };
}

/** The search of one structure: generate, optimise (GFN-FF, then GFN2), prune, weigh. */
async function searchOne(ctx: RunContext<Payload>, set: Settings, s: Structure, tools: EngineTools, dir: string, total: number): Promise<ItemOutput> {
  checkStructure(s, set.method);
  if (s.info.atoms > CONFORMER_MAX_ATOMS[set.method])
    throw new ItemFailure('too_large', `${s.info.atoms} atoms with hydrogens; a ${set.method} conformer search takes at most ${CONFORMER_MAX_ATOMS[set.method]}`);
  const spin = chargeAndSpin(ctx.payload, s);
  const progress = (fraction: number, message: string, detail: Record<string, unknown>) =>
    ctx.progress(
      0.02 + (0.96 * (s.index + Math.min(1, fraction))) / total,
      `structure ${s.index + 1} of ${total}: ${message}`,
      { structure: s.index, structures: total, ...detail },
      false,
    );
  progress(0, 'building 3D coordinates', { stage: 'prepare' });
  const prepared = await prepare(s, tools, dir);
  const count = candidatesFor(set.maxConformers);
  progress(0.01, 'generating candidates', { stage: 'generate' });
  const gen = await generateCandidates(tools, dir, prepared, count, set.rmsdThreshold);
  const rmsd: RmsdContext = rmsdContext(prepared.molblock);
  const stage = (st: Stage) => (done: number, n: number) =>
    progress(st.from + ((st.to - st.from) * done) / n, `${st.label} ${done} of ${n} candidates`, { stage: st.label, done, total: n });
  const xtb = { solvent: set.solvent, charge: spin.charge, multiplicity: spin.multiplicity };
  const gfn2 = set.method === 'gfn2';
  const ff = await optimizeAll(ctx, tools, dir, prepared, gen.conformations, { method: 'gfnff', ...xtb }, stage({ label: 'gfnff', from: 0.05, to: gfn2 ? 0.3 : 1 }));
  let final = ff;
  let toGfn2 = 0;
  if (gfn2 && ff.ok.length) {
    const pre = await pruneEnsembleAsync(rmsd, ff.ok, { windowKcal: preWindowKcal(set.windowKcal), rmsdThreshold: set.rmsdThreshold, max: preKeep(set.maxConformers) });
    toGfn2 = pre.length;
    final = await optimizeAll(
      ctx,
      tools,
      dir,
      prepared,
      pre.map((c) => c.coords),
      { method: 'gfn2', ...xtb },
      stage({ label: 'gfn2', from: 0.3, to: 1 }),
    );
  }
  if (!final.ok.length) {
    const why = final.lastFailure ?? ff.lastFailure;
    if (why) throw new ItemFailure(why.code, `no candidate conformer could be optimised; the last failure: ${why.message}`);
    throw new ItemFailure('topology_changed', 'every optimised candidate broke a bond of the structure (a proton moved or a ring opened)');
  }
  const kept = await pruneEnsembleAsync(rmsd, final.ok, { windowKcal: set.windowKcal, rmsdThreshold: set.rmsdThreshold, max: set.maxConformers });
  const weights = boltzmannWeights(
    kept.map((c) => c.energyHartree),
    set.temperatureK,
  );
  const lowest = kept[0]!.energyHartree;
  const conformers = kept.map((c, j) => ({
    molblock: c.molblock,
    energy_hartree: c.energyHartree,
    relative_kcal: Math.round((c.energyHartree - lowest) * KCAL_PER_HARTREE * 1e6) / 1e6,
    boltzmann_weight: weights[j]!,
  }));
  const props = conformers.map((c, j) => ({ conformer: j + 1, energy_hartree: c.energy_hartree, relative_kcal: c.relative_kcal, boltzmann_weight: c.boltzmann_weight }));
  return {
    fields: {
      conformers,
      charge: spin.charge,
      multiplicity: spin.multiplicity,
      search: {
        generator: gen.generator,
        torsion_combinations: gen.enumerated,
        torsion_combinations_tested: gen.tested,
        candidates: gen.conformations.length,
        optimized_gfnff: ff.ok.length,
        optimized_gfn2: gfn2 ? final.ok.length : null,
        sent_to_gfn2: gfn2 ? toGfn2 : null,
        failed: ff.failed + (gfn2 ? final.failed : 0),
        bonds_broken: ff.broken + (gfn2 ? final.broken : 0),
      },
    },
    structures: conformers.map((c, j) => ({ molblock: c.molblock, props: props[j]! })),
    row: { conformers: conformers.length, lowest_energy_hartree: lowest, lowest_weight: weights[0]! },
  };
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = String(v as string | number);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Methods named for /papers/cite: the method (GFN-FF always, for the pre-optimisation), the solvation model, Open Babel. */
export function conformerMethods(p: QmPayload): string[] {
  const m = p.method === 'gfnff' ? 'gfnff' : 'gfn2';
  return [...new Set([...qmMethods({ ...p, method: m }), 'gfnff'])];
}

export const conformersJob = engineJob<Payload>('conformers', { structures: 'molecules', lowest: 'molecules', table: 'table' }, ['obabel', 'xtb'], {
  summary: "3D conformer ensemble of each structure: Open Babel's candidates optimised with GFN-FF (and GFN2-xTB), pruned by energy window and RMSD, Boltzmann-weighted",
  payload: Payload,
  result: ConformersResult,
  methods: ['gfn2', 'gfnff', 'alpb', 'openbabel'],
  methodsOf: conformerMethods,
  async estimate(p, ctx) {
    // The qm checks (a charge and multiplicity that cannot fit is a 422), and the candidates the
    // run will optimise from each structure's rotatable bonds (docs/jobs.md, "Calibration of the
    // engine estimates"): inline structures read once, with their rotatable bonds.
    const method = p.method === 'gfnff' ? 'gfnff' : 'gfn2';
    let infos: Promise<StructureInfoOutcome[]> | null = null;
    const read = ctx.structureInfo ? (inputs: string[]) => (infos ??= ctx.structureInfo!(inputs, { rotatable: true })) : undefined;
    const checked = await qmEstimate({ ...p, method }, { ...ctx, structureInfo: read }, 'conformer');
    const n = checked.assumptions.structures as number;
    // A structure that cannot be read, or too large for a search, is an item error that runs nothing.
    const sized =
      p.molecules && read
        ? (await read(p.molecules)).map((i) => (i.error || i.atoms > CONFORMER_MAX_ATOMS[method] ? { atoms: 0, rotors: 0 } : { atoms: i.atoms, rotors: i.rotatable ?? 0 }))
        : [];
    const maxConformers = p.max_conformers ?? 50;
    return conformerEstimate(method, n, sized, { candidates: candidatesFor(maxConformers), gfn2Keep: preKeep(maxConformers) });
  },
  async run(ctx) {
    const set = settingsOf(ctx.payload);
    const structures = await loadStructures(ctx);
    const run = await runItems(ctx, structures, { perCallTimeoutMs: PER_CALL_MS, label: 'conformers' }, (s, tools, dir) => searchOne(ctx, set, s, tools, dir, structures.length));
    const out = engineOutput('conformers', set.method, run, {
      solvent: set.solvent,
      max_conformers: set.maxConformers,
      energy_window_kcal: set.windowKcal,
      rmsd_threshold: set.rmsdThreshold,
      temperature_k: set.temperatureK,
    });
    // Every conformer's record named <structure id>-<rank>; `lowest`: each structure's lowest
    // conformer under the structure's id (a chain conformers -> frequencies takes it); `table`:
    // one row per conformer.
    const records = [...(out.ports!.structures!.records as OutputRecord[])];
    const all: OutputRecord[] = [];
    const lowest: OutputRecord[] = [];
    let at = 0;
    run.items.forEach((it, k) => {
      (run.outputs[k]?.structures ?? []).forEach((_, j) => {
        const r = records[at++]!;
        all.push({ ...r, id: suffixedRecordId(it.id, `-${j + 1}`) });
        if (j === 0) lowest.push({ ...r, id: it.id });
      });
    });
    const columns = ['index', 'id', 'name', 'smiles', 'error', 'conformer', 'energy_hartree', 'relative_kcal', 'boltzmann_weight'];
    const rows: unknown[][] = [];
    run.items.forEach((it) => {
      const cs = (it.fields.conformers as { energy_hartree: number; relative_kcal: number; boltzmann_weight: number }[] | undefined) ?? [];
      if (!cs.length) rows.push([it.index, it.id, it.name, it.smiles, it.error, null, null, null, null]);
      cs.forEach((c, j) => rows.push([it.index, it.id, it.name, it.smiles, it.error, j + 1, c.energy_hartree, c.relative_kcal, c.boltzmann_weight]));
    });
    const table = [columns.join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n';
    const result = out.result as { ports: Record<string, string> };
    result.ports = {
      structures:
        'every conformer as an SDF record (id <structure id>-<rank>, rank 1 the lowest), with conformer, energy_hartree, relative_kcal and boltzmann_weight as SDF fields',
      lowest: "each structure's lowest conformer as an SDF record (id the structure's id): the input of a frequencies or optimize job",
      table: "a CSV table, one row per conformer with its structure's index, id, name and SMILES (one row with the error for a structure that failed)",
      logs: "each structure's engine output (bounded)",
    };
    out.ports!.structures = { format: 'sdf', kind: 'molecules', records: all };
    out.ports!.lowest = { format: 'sdf', kind: 'molecules', records: lowest };
    out.ports!.table = { format: 'csv', kind: 'table', records: [{ id: 'table', files: { primary: { name: 'conformers.csv', content: table, contentType: 'text/csv' } } }] };
    return out;
  },
});
