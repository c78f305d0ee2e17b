// Units of the API's fields, read from their names (docs/console.md, "Numbers and labels"): the
// precision a value is shown at and the human label of a field or column. The API names a
// quantity with its unit as a suffix (energy_hartree, relative_kcal, score_kcal_mol,
// frequencies_cm1, temperature_k; docs/engines.md), so one table of suffixes serves the job form,
// the result tables and the workflow outputs. Fields without a known unit keep 3 decimals.

export interface Unit {
  /** The unit as the label shows it ("Eh", "kcal/mol"), or '' for none. */
  label: string;
  /** Decimals of a non-integer value; 'usd' for money. */
  digits: number | 'usd';
}

/** Unit suffixes (the name's last words), longest first. */
const SUFFIXES: [string[], Unit][] = [
  [['cal', 'mol', 'k'], { label: 'cal/(mol·K)', digits: 2 }],
  [['kcal', 'mol'], { label: 'kcal/mol', digits: 2 }],
  [['kj', 'mol'], { label: 'kJ/mol', digits: 2 }],
  [['km', 'mol'], { label: 'km/mol', digits: 2 }],
  [['g', 'mol'], { label: 'g/mol', digits: 3 }],
  [['hartree'], { label: 'Eh', digits: 6 }],
  [['eh'], { label: 'Eh', digits: 6 }],
  [['kcal'], { label: 'kcal/mol', digits: 2 }],
  [['ev'], { label: 'eV', digits: 3 }],
  [['cm1'], { label: 'cm⁻¹', digits: 1 }],
  [['debye'], { label: 'D', digits: 3 }],
  [['deg'], { label: '°', digits: 1 }],
  [['angstrom'], { label: 'Å', digits: 3 }],
  [['k'], { label: 'K', digits: 2 }],
  [['sec'], { label: 's', digits: 2 }],
  [['seconds'], { label: 's', digits: 2 }],
  [['usd'], { label: 'USD', digits: 'usd' }],
  [['pct'], { label: '%', digits: 1 }],
  [['percent'], { label: '%', digits: 1 }],
];

/** Whole names whose unit is not in the name (docs/engines.md, docs/jobs.md). */
const NAMED: Record<string, Unit | null> = {
  top_k: null,
  rmsd_lb: { label: 'Å', digits: 2 },
  rmsd_ub: { label: 'Å', digits: 2 },
  rmsd_threshold: { label: 'Å', digits: 2 },
  padding: { label: 'Å', digits: 2 },
  center: { label: 'Å', digits: 3 },
  size: { label: 'Å', digits: 3 },
  rate_per_sec: { label: 'USD', digits: 'usd' },
  rate_micros_per_sec: null,
  cost: { label: 'USD', digits: 'usd' },
  charged_amount: { label: 'USD', digits: 'usd' },
  reserved_amount: { label: 'USD', digits: 'usd' },
  // A pKa has no unit and two decimals (the pka job's own).
  pka: { label: '', digits: 2 },
};

/** Words written their own way in a label. */
const WORDS: Record<string, string> = {
  smiles: 'SMILES',
  ph: 'pH',
  pdb: 'PDB',
  id: 'ID',
  ids: 'IDs',
  rmsd: 'RMSD',
  homo: 'HOMO',
  lumo: 'LUMO',
  ip: 'IP',
  ea: 'EA',
  ir: 'IR',
  mw: 'MW',
  logp: 'logP',
  tpsa: 'TPSA',
  hba: 'HBA',
  hbd: 'HBD',
  zpve: 'ZPVE',
  qed: 'QED',
  csv: 'CSV',
  lb: 'lower bound',
  ub: 'upper bound',
  n: 'number of',
  api: 'API',
  doi: 'DOI',
  cid: 'CID',
  cids: 'CIDs',
  chembl: 'ChEMBL',
  clogp: 'cLogP',
  alogp: 'ALogP',
  rmse: 'RMSE',
  roc: 'ROC',
  auc: 'AUC',
  pains: 'PAINS',
  cxsmiles: 'CXSMILES',
  ec: 'EC',
  r2: 'R²',
  mz: 'm/z',
  pka: 'pKa',
  bde: 'BDE',
  ch: 'C–H',
};

/** Whole labels that read better than their words. */
const LABELS: Record<string, string> = {
  input_artifact_id: 'Input (from the library)',
  receptor_artifact_id: 'Receptor (from the library)',
  reference_ligand_artifact_id: 'Reference ligand (from the library)',
  num_modes: 'Poses per ligand',
  max_iterations: 'Max iterations',
  score_kcal_mol: 'Score (kcal/mol)',
  relative_kcal: 'Relative energy (kcal/mol)',
  n_imaginary: 'Imaginary modes',
  top_k: 'Top k',
  f_plus: 'f⁺',
  f_minus: 'f⁻',
  f_zero: 'f⁰',
  top_f_plus: 'Top f⁺',
  top_f_minus: 'Top f⁻',
  top_f_plus_atom: 'Top f⁺ atom',
  top_f_minus_atom: 'Top f⁻ atom',
};

function split(name: string): { words: string[]; unit: Unit | null } {
  const words = name.toLowerCase().split('_').filter(Boolean);
  const key = name.toLowerCase();
  if (key in NAMED) return { words, unit: NAMED[key] ?? null };
  for (const [suffix, unit] of SUFFIXES) {
    if (words.length <= suffix.length) continue;
    if (suffix.every((w, i) => words[words.length - suffix.length + i] === w)) return { words: words.slice(0, -suffix.length), unit };
  }
  return { words, unit: null };
}

/** The unit a field's name carries, or null. */
export function unitOf(name: string): Unit | null {
  return split(name).unit;
}

/** A field's label: words, capitalised, then its unit ("temperature_k" -> "Temperature (K)"). */
export function fieldLabel(name: string): string {
  const whole = LABELS[name.toLowerCase()];
  if (whole) return whole;
  const { words, unit } = split(name);
  const text = words.map((w) => WORDS[w] ?? w).join(' ');
  // Capitalised, unless the first word is written its own way (pH, cLogP, m/z).
  const styled = /^[a-z].*[A-Z/]/.test(WORDS[words[0] ?? ''] ?? '');
  const head = styled ? text : text.replace(/^[a-z]/, (c) => c.toUpperCase());
  return unit?.label && unit.digits !== 'usd' ? `${head} (${unit.label})` : head;
}

/**
 * The console's number formatter: `v` to `digits` decimals, or with `significant` to `digits`
 * significant digits without trailing zeros (a model's metrics and predictions, docs/console.md
 * "Models"); with `sign`, a + before a positive value; '–' when it is not a finite number.
 * formatNumber picks the decimals from a field's unit.
 */
export function numberText(v: unknown, digits: number, { sign = false, significant = false }: { sign?: boolean; significant?: boolean } = {}): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '–';
  const text = significant ? String(Number(v.toPrecision(digits))) : v.toFixed(digits);
  return sign && v >= 0 ? `+${text}` : text;
}

/**
 * The console's money formatter (docs/console.md, "Numbers and labels"): dollars to 4 decimals
 * ($0.0004), as everywhere in the console, unless a place asks for other `digits` (the ledger and
 * an Assistant turn's cost to the micro-dollar, 6; prices per million tokens and an API key's
 * spend and ceiling to the cent, 2). `move`: a change of a balance, signed + or − (a minus
 * sign), and – for none. '–' when there is no amount.
 */
export function usd(n: number | null | undefined, { digits = 4, move = false }: { digits?: number; move?: boolean } = {}): string {
  if (n == null || (move && n === 0)) return '–';
  return move ? `${n < 0 ? '−' : '+'}$${numberText(Math.abs(n), digits)}` : `$${numberText(n, digits)}`;
}

/** A size in bytes as B, KiB, MiB or GiB (storage against the quota: "4.1 KiB of 50.00 GiB"). */
export const bytes = (n: number): string =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${numberText(n / 1024, 1)} KiB` : n < 1024 ** 3 ? `${numberText(n / 1024 ** 2, 1)} MiB` : `${numberText(n / 1024 ** 3, 2)} GiB`;

/**
 * A number at the precision its field's unit needs: Eh to 6 decimals, kcal/mol to 2, cm⁻¹ to 1,
 * money in dollars (the table above); without a unit, integers as they are and others to 3.
 */
export function formatNumber(name: string, v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const unit = unitOf(name);
  if (unit?.digits === 'usd') return usd(v);
  if (unit) return numberText(v, unit.digits);
  return Number.isInteger(v) ? String(v) : numberText(v, 3);
}

/** A plain value of the field `name` as a table cell's text. */
export function formatValue(name: string, v: unknown): string {
  if (typeof v === 'number') return formatNumber(name, v);
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  return '–';
}
