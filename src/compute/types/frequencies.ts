// `frequencies` (docs/engines.md, "Frequencies and scans"): each
// structure optimised (tight convergence with xtb, PRECISE with MOPAC), then its harmonic
// frequencies, IR intensities and thermochemistry at `temperature_k` on that geometry. Result
// items: molblock, energy_hartree, frequencies_cm1 (imaginary negative; the rotations and
// translations dropped), ir_intensities_km_mol, n_imaginary, zpve_hartree, enthalpy_hartree,
// entropy_cal_mol_k, gibbs_hartree, temperature_k; the `plot` port holds an IR spectrum per
// structure.
import { Type, type Static } from '@sinclair/typebox';
import type { OutputRecord } from '../job-type.js';
import { mopacVibrations, xtbVibrations, type Vibrations } from '../../engines/qm/hessian.js';
import { qmFields, structureFields, XTB_METHODS, type QmPayload } from './kit/payload.js';
import { irSpectrumSvg } from '../../engines/qm/plots.js';
import { methodOf, qmEstimate, runQm, runQmItems } from './kit/qm.js';
import { engineOutput } from './kit/run.js';
import { displayName } from './kit/structures.js';
import { readMolblockAtoms } from '../../engines/molblock.js';
import { engineJob } from './kit/engine-job.js';
import { qmMethods } from './optimize.js';
import { FrequenciesResult } from './kit/results.js';

const Payload = Type.Object(
  {
    ...structureFields(),
    ...qmFields(),
    temperature_k: Type.Optional(
      Type.Number({
        minimum: 100,
        maximum: 3000,
        default: 298.15,
        description: 'Temperature of the thermochemistry, K (MOPAC tabulates whole kelvins: the nearest is used and reported)',
      }),
    ),
    scale_factor: Type.Optional(
      Type.Number({
        minimum: 0.8,
        maximum: 1.2,
        default: 1,
        description:
          "Frequency scale factor (e.g. a method's published one): multiplies the reported frequencies and the IR spectrum; the thermochemistry (ZPVE, H, S, G) is the engine's, from unscaled frequencies. Stated in the result",
      }),
    ),
  },
  { additionalProperties: false },
);
type Payload = Static<typeof Payload> & QmPayload & { temperature_k?: number; scale_factor?: number };

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

export const frequenciesJob = engineJob<Payload>('frequencies', { structures: 'molecules', table: 'table' }, 'method', {
  summary: 'Harmonic frequencies, IR intensities and thermochemistry (ZPVE, H, S, G) of the optimised structure, with xtb or MOPAC',
  payload: Payload,
  result: FrequenciesResult,
  methods: ['gfn2', 'gfn1', 'gfnff', 'pm7', 'pm6', 'alpb', 'cosmo', 'openbabel', 'rrho'],
  methodsOf: (p) => {
    const m = qmMethods(p);
    return XTB_METHODS.includes(methodOf(p)) ? [...m, 'rrho'] : m;
  },
  estimate: (p, ctx) => qmEstimate(p, ctx, 'frequencies'),
  async run(ctx) {
    const p = ctx.payload;
    const method = methodOf(p);
    const temperatureK = p.temperature_k ?? 298.15;
    const scale = p.scale_factor ?? 1;
    const plots: OutputRecord[] = [];
    const run = await runQmItems(ctx, 'frequencies', async ({ s, tools, dir, spin, prepared }) => {
      const call = { method, solvent: p.solvent, ...spin };
      const opt = await runQm(tools, dir, prepared, { ...call, optimize: { maxIterations: p.max_iterations, level: 'tight' } });
      const optimized = { ...prepared, molblock: opt.molblock, ...readMolblockAtoms(opt.molblock) };
      const v: Vibrations = await (XTB_METHODS.includes(method) ? xtbVibrations : mopacVibrations)(tools, dir, optimized, {
        ...call,
        temperatureK,
        energyHartree: opt.energyHartree,
      });
      // The scale factor multiplies the frequencies reported and drawn (1: the engine's as they are).
      const frequencies = scale === 1 ? v.frequencies : v.frequencies.map((f) => round(f * scale, 4));
      const fields = {
        molblock: opt.molblock,
        energy_hartree: round(v.energyHartree, 12),
        frequencies_cm1: frequencies,
        ir_intensities_km_mol: v.intensities,
        n_imaginary: frequencies.filter((f) => f < 0).length,
        zpve_hartree: round(v.zpveHartree, 12),
        enthalpy_hartree: round(v.enthalpyHartree, 12),
        entropy_cal_mol_k: v.entropyCalMolK,
        gibbs_hartree: round(v.gibbsHartree, 12),
        temperature_k: v.temperatureK,
      };
      const scalars = {
        energy_hartree: fields.energy_hartree,
        n_imaginary: fields.n_imaginary,
        lowest_frequency_cm1: frequencies[0] ?? null,
        zpve_hartree: fields.zpve_hartree,
        enthalpy_hartree: fields.enthalpy_hartree,
        entropy_cal_mol_k: fields.entropy_cal_mol_k,
        gibbs_hartree: fields.gibbs_hartree,
        temperature_k: fields.temperature_k,
      };
      plots.push({
        id: s.id,
        files: {
          primary: {
            name: 'ir-spectrum.svg',
            content: irSpectrumSvg({ title: displayName(s), method, frequencies, intensities: v.intensities, scaleFactor: scale }),
            contentType: 'image/svg+xml',
          },
        },
        metrics: { index: s.index },
      });
      return { fields, structures: [{ molblock: opt.molblock, props: scalars }], row: scalars };
    });
    const out = engineOutput('frequencies', method, run, { solvent: p.solvent ?? null, temperature_k: temperatureK, scale_factor: scale });
    plots.sort((a, b) => (a.metrics!.index ?? 0) - (b.metrics!.index ?? 0));
    (out.result as { ports: Record<string, string> }).ports.plot = 'an IR spectrum per structure (image/svg+xml; record id = the structure id)';
    out.ports!.plot = { format: 'svg', kind: 'svg', records: plots };
    return out;
  },
});
