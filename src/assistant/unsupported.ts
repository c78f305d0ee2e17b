// What the platform does not compute, for the builtin Assistant model (docs/assistant.md,
// "What it cannot do"): a request that names a property or a method no job type offers (NMR
// shifts, a functional or basis set no DFT engine here runs, excited states, ...) is answered
// plainly ("Crucible cannot compute NMR chemical shifts yet") with what it can do, read from the job type registry (the types GET /jobs/types lists),
// instead of being taken for another request (describing the molecule named, or running the
// calculation with the default semi-empirical method).
import { JOB_TYPES } from '../compute/registry.js';

interface NotOffered {
  re: RegExp;
  /** What was asked, as the answer names it. */
  what: string;
  /** "compute" (the default) or "run". */
  verb?: 'run';
  /** The closest thing Crucible offers, when there is one. */
  instead?: string;
}

const SEMIEMPIRICAL =
  'its quantum chemistry is GFN2-xTB, GFN1-xTB and GFN-FF (xtb), PM7 and PM6 (MOPAC), and for single points and optimisations HF, PBE, PBE0, B3LYP, ωB97X-D, B3LYP-D3(BJ) and PBE0-D3(BJ) with def2-SVP, def2-TZVP, 6-31G* or cc-pVDZ (Psi4, NWChem), e.g. "single point of caffeine with B3LYP-D3(BJ)/def2-SVP"';

const NOT_OFFERED: readonly NotOffered[] = [
  { re: /\bnmr\b|\bchemical\s+shifts?\b|\bj[- ]?couplings?\b|\bcoupling\s+constants?\b/i, what: 'NMR chemical shifts' },
  {
    // The functionals no engine here runs (HF, PBE, PBE0, B3LYP, ωB97X-D and the D3(BJ) variants do).
    re: /\bcam-b3lyp\b|[wω]b97(?!x-?d(?![\w-]))[\w-]*|\bm06(?:-2x|-l)?\b|\bb97-d3?\b|\btpssh?\b|\br2scan(?:-3c)?\b|\bbp86\b|\bpw6b95\b|\bb2plyp\b|\b(?:b3lyp|pbe0?)-d2\b|\b(?:b3lyp|pbe0?)-d3\(?0\)?|\b(?:pbeh|hf|b97)-3c\b/i,
    what: 'DFT with that functional',
    verb: 'run',
    instead: SEMIEMPIRICAL,
  },
  {
    re: /\bmp2\b|\bccsd(?:\(t\))?|\bcasscf\b|\bcaspt2\b|\bdlpno\b|\bcoupled[- ]cluster\b|\b6-31\+{1,2}g|\b6-31g\b(?!\*|\s*\(d\))|\b6-31g\*\*|\b6-311\+*g|\bdef2-?(?!svp\b|tzvp\b)[a-z]+\b|\bcc-p(?!vdz\b)[vc]\w*z\b|\baug-cc-p\w+\b|\bsto-3g\b/i,
    what: 'correlated ab initio calculations or that basis set (MP2, coupled cluster; the basis sets here are def2-SVP, def2-TZVP, 6-31G* and cc-pVDZ)',
    verb: 'run',
    instead: SEMIEMPIRICAL,
  },
  {
    re: /\buv[- /]?vis\b|\buv\s+spectr|\bexcited[- ]states?\b|\btd-?dft\b|\bexcitation\s+energ|\babsorption\s+spectr|\bfluorescence\b|\bphosphorescence\b|\bcircular\s+dichroism\b/i,
    what: 'UV-Vis spectra or excited states',
  },
  { re: /\braman\b/i, what: 'Raman spectra', instead: 'IR spectra come with a frequency calculation, e.g. "frequencies of ethanol with GFN2"' },
  { re: /\bmolecular\s+dynamics\b|\bmd\s+(?:simulations?|runs?|trajector(?:y|ies))\b/i, what: 'molecular dynamics simulations', verb: 'run' },
  {
    re: /\btransition[- ]states?\b|\bts\s+(?:search|optimi[sz]ation)\b|\breaction\s+(?:barriers?|paths?|mechanisms?)\b|\bactivation\s+(?:free\s+)?energ|\birc\b|\bnudged\s+elastic\s+band\b/i,
    what: 'transition states or reaction barriers',
    instead: 'a relaxed torsion scan (scan) gives the energy profile of a dihedral',
  },
  {
    re: /\bfree[- ]energy\s+perturbation\b|\bfep\b|\bmm[/-]?[gp]bsa\b|\bbinding\s+free\s+energ(?:y|ies)\b|\bbinding\s+affinit(?:y|ies)\b/i,
    what: 'binding free energies (FEP, MM/GBSA)',
    instead: 'docking (AutoDock Vina) gives a docking score, e.g. "dock imatinib into 1IEP around STI"',
  },
  { re: /\bmass\s+spectr|\bms\/ms\b|\bfragmentation\s+patterns?\b/i, what: 'mass spectra' },
  { re: /\bretro-?synthe|\bsynthe(?:sis|tic)\s+(?:routes?|plans?|pathways?)\b/i, what: 'retrosynthesis' },
  {
    // Vertical ionisation potentials and electron affinities are a reactivity job's (docs/engines.md, "Reactivity").
    re: /\bredox\s+potentials?\b|\b(?:reduction|oxidation)\s+potentials?\b/i,
    what: 'redox potentials',
    instead: 'a reactivity job (reactivity) gives vertical ionisation potentials and electron affinities with GFN2-xTB',
  },
  // Vertical IPs and EAs are the reactivity job's (questions.ts) once it is registered.
  ...(JOB_TYPES.has('reactivity')
    ? []
    : [
        {
          re: /\bioni[sz]ation\s+(?:potentials?|energ(?:y|ies))\b|\belectron\s+affinit(?:y|ies)\b/i,
          what: 'ionisation potentials or electron affinities',
          instead: 'a single point gives the HOMO-LUMO gap, e.g. "single point of CCO with GFN2"',
        },
      ]),
  {
    re: /\btoxicit(?:y|ies)\b|\bld50\b|\bherg\b|\bames\s+test\b|\badmet\b/i,
    what: 'toxicity (ADMET) predictions',
    instead: '"describe" lists structural alerts (PAINS, Brenk)',
  },
];

/** What each job type offers, in a few words (a type missing here is told by its own summary). */
const OFFERS: Readonly<Record<string, string>> = {
  properties: 'RDKit properties (formula, MW, cLogP, TPSA, donors and acceptors, QED, Lipinski, alerts)',
  depict: 'drawings',
  similarity_search: 'similarity search',
  substructure_search: 'substructure search',
  cluster: 'clustering',
  filter: 'property filters',
  mpnn_train: 'training D-MPNN property models on your measurements',
  mpnn_predict: 'predictions with the public models (ESOL aqueous solubility, FreeSolv hydration free energy) or yours',
  optimize: 'geometry optimisation',
  singlepoint: 'single-point energies, HOMO-LUMO gaps, dipoles and partial charges, semi-empirical, DFT or HF',
  frequencies: 'harmonic frequencies, IR spectra and thermochemistry (ZPVE, H, S, G)',
  conformers: 'conformer ensembles',
  scan: 'relaxed torsion scans',
  docking: 'docking (AutoDock Vina)',
  pka: 'pKa values and the charge state at a pH, in water',
  tautomers: 'tautomers ranked by free energy in a solvent',
  bde: 'bond dissociation enthalpies (the weakest C-H bonds, metabolic soft spots)',
  reactivity: 'Fukui indices, HOMO/LUMO, ionisation potential, electron affinity and electrophilicity',
};
/** Job types that are no capability to a chemist (profile_table joins other jobs' results in a workflow). */
const NOT_CAPABILITIES = new Set(['wait', 'profile_table']);

/** What Crucible computes: one entry per job type of the registry, with its name. */
export function capabilities(): string[] {
  return [...JOB_TYPES.values()].filter((t) => !NOT_CAPABILITIES.has(t.name)).map((t) => `${OFFERS[t.name] ?? t.summary} (${t.name})`);
}

const andOr = (xs: string[]) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`);

/** The plain answer to a request for something Crucible does not compute, or null. */
export function unsupportedIn(request: string): { kind: 'ask'; text: string } | null {
  const hits = NOT_OFFERED.filter((n) => n.re.test(request));
  if (!hits.length) return null;
  const instead = [...new Set(hits.flatMap((h) => (h.instead ? [h.instead] : [])))];
  const verbs = (['compute', 'run'] as const)
    .map((v) => [v, hits.filter((h) => (h.verb ?? 'compute') === v).map((h) => h.what)] as const)
    .filter(([, whats]) => whats.length)
    .map(([v, whats]) => `${v} ${andOr(whats)}`);
  return {
    kind: 'ask',
    text:
      `Crucible cannot ${verbs.join(' or ')} yet: none of its job types, utilities or models does, so I did not run or plan anything.` +
      (instead.length ? ` Closest: ${instead.join('; ')}.` : '') +
      `\nWhat it can do: ${capabilities().join('; ')}. Ask "help" for the requests I understand.`,
  };
}
