// Payload pieces shared by the engine job types (docs/engines.md): the
// structures (SMILES or molblocks, or an uploaded set), the method, solvent, charge and
// multiplicity, and the rules a JSON schema cannot say.
import { Type } from '@sinclair/typebox';
import { invalid } from '../../../errors.js';
import { isMolblock } from '../../../chem/jobs/handlers.js';
import { molblockCoordinateProblem } from '../../../chem/formats/coordinates.js';
import type { EngineName } from '../../../engines/catalog.js';
import { SOLVENTS } from '../../../engines/qm/solvents.js';
import type { EstimateContext } from '../../job-type.js';

/** Structures one engine job takes (more go through a workflow, one job per chunk). */
export const MAX_STRUCTURES = 1_000;
/** A molblock longer than this is refused. */
export const MAX_MOLBLOCK_CHARS = 200_000;

export const QM_METHODS = ['gfn2', 'gfn1', 'gfnff', 'pm7', 'pm6'] as const;
export type QmMethod = (typeof QM_METHODS)[number];
export const XTB_METHODS: readonly QmMethod[] = ['gfn2', 'gfn1', 'gfnff'];

/** Atoms a structure may have: 1,000 for the force field, 200 for the quantum methods. */
export function maxAtoms(method: string): number {
  return method === 'gfnff' ? 1_000 : 200;
}

/** Which engines a method needs: Open Babel builds 3D structures for every method. */
export function enginesForMethod(method: string): EngineName[] {
  return XTB_METHODS.includes(method as QmMethod) ? ['obabel', 'xtb'] : ['mopac', 'obabel'];
}

export const ENGINE_SETS: EngineName[][] = [
  ['obabel', 'xtb'],
  ['mopac', 'obabel'],
];

export function structureFields() {
  return {
    molecules: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: MAX_MOLBLOCK_CHARS }), {
        minItems: 1,
        maxItems: MAX_STRUCTURES,
        description: `The structures (1 to ${MAX_STRUCTURES}): each a SMILES (3D coordinates built, hydrogens added) or a V2000/V3000 molblock (3D coordinates kept; hydrogens added when missing). Exactly one of molecules and input_artifact_id`,
      }),
    ),
    input_artifact_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: `An uploaded molecule set or an earlier job's structures (e.g. a conformers or optimize result, with port "structures"), at most ${MAX_STRUCTURES}. Exactly one of molecules and input_artifact_id`,
      }),
    ),
    port: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The port of input_artifact_id holding the structures' })),
  };
}

export function qmFields(methods: readonly QmMethod[] = QM_METHODS, defaultMethod: QmMethod = 'gfn2') {
  return {
    method: Type.Optional(
      Type.Union(
        methods.map((m) => Type.Literal(m)),
        { default: defaultMethod, description: 'gfn2 (GFN2-xTB), gfn1 (GFN1-xTB), gfnff (GFN-FF force field): xtb; pm7, pm6: MOPAC' },
      ),
    ),
    solvent: Type.Optional(
      Type.Union([Type.Union(Object.keys(SOLVENTS).map((s) => Type.Literal(s))), Type.Null()], {
        default: null,
        description: "Implicit solvent: ALPB in xtb, COSMO (with the solvent's dielectric constant) in MOPAC; null: gas phase",
      }),
    ),
    charge: Type.Optional(Type.Integer({ minimum: -10, maximum: 10, description: "Total charge (default: each molecule's formal charge)" })),
    multiplicity: Type.Optional(Type.Integer({ minimum: 1, maximum: 7, description: 'Spin multiplicity 2S+1 (default 1, or 2 for an odd number of electrons)' })),
    max_iterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 5_000, description: 'Geometry optimisation cycles at most (engine default when absent)' })),
  };
}

export interface StructurePayload {
  molecules?: string[];
  input_artifact_id?: string;
  port?: string;
}

export interface QmPayload extends StructurePayload {
  method?: QmMethod;
  solvent?: string | null;
  charge?: number;
  multiplicity?: number;
  max_iterations?: number;
}

/** Exactly one source, port only with an artifact: 422 at payload.<field>. */
export function checkStructures(p: StructurePayload): void {
  if (p.molecules === undefined && p.input_artifact_id === undefined)
    throw invalid(['molecules'], 'Field required: give the structures as molecules (SMILES or molblocks) or as input_artifact_id', null, 'missing');
  if (p.molecules !== undefined && p.input_artifact_id !== undefined)
    throw invalid(['input_artifact_id'], 'Give either molecules or input_artifact_id, not both', p.input_artifact_id);
  if (p.port !== undefined && p.input_artifact_id === undefined) throw invalid(['port'], 'port applies to input_artifact_id only', p.port);
  p.molecules?.forEach((m, i) => {
    const problem = isMolblock(m) ? molblockCoordinateProblem(m) : null;
    if (problem) throw invalid(['molecules', i], `structure ${i}: ${problem}; coordinates are finite numbers of Å`, m.slice(0, 200), 'value_error');
  });
}

/** How many structures a job will read (an uploaded set counted without reading it). */
export async function countStructures(p: StructurePayload, ctx: EstimateContext): Promise<number> {
  checkStructures(p);
  if (p.molecules) return p.molecules.length;
  const n = await ctx.countMolecules(p.input_artifact_id!, p.port);
  if (n === 0) throw invalid(['input_artifact_id'], `artifact ${p.input_artifact_id} holds no structures`, p.input_artifact_id);
  if (n > MAX_STRUCTURES)
    throw invalid(
      ['input_artifact_id'],
      `artifact ${p.input_artifact_id} holds ${n} structures; one job takes at most ${MAX_STRUCTURES} (run more through a workflow)`,
      p.input_artifact_id,
      'too_long',
    );
  return n;
}

/**
 * The multiplicity a structure gets, and whether it fits its electrons: a system needs at least
 * one electron (a bare proton, or methane at charge +10, has nothing to compute), an even count
 * of electrons needs an odd multiplicity and the other way round, with at most as many unpaired
 * electrons as electrons.
 */
export function spinOf(electrons: number, multiplicity: number | undefined): { multiplicity: number; ok: boolean; noElectrons: boolean } {
  const m = multiplicity ?? (electrons % 2 === 0 ? 1 : 2);
  const unpaired = m - 1;
  const noElectrons = electrons <= 0;
  return { multiplicity: m, ok: !noElectrons && unpaired <= electrons && (electrons - unpaired) % 2 === 0, noElectrons };
}

/** Why a structure's electrons do not fit its charge and multiplicity (spinOf not ok), in words: "<subject> has N electrons with charge C, ...". */
export function spinProblem(subject: string, electrons: number, charge: number, spin: { multiplicity: number; noElectrons: boolean }): string {
  const has = `${subject} has ${electrons} electrons with charge ${charge}`;
  if (spin.noElectrons) return `${has}: a calculation needs at least one electron`;
  return `${has}, which multiplicity ${spin.multiplicity} does not fit (an even count needs an odd multiplicity)`;
}
