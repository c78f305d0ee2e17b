// The console's rule for numbers and labels (web/src/lib/units.ts; docs/console.md, "Numbers and
// labels") and its names for jobs and library items (web/src/lib/names.ts): plain functions, tested
// without a browser. Issue 32: a Hartree energy read -39.623 (every decimal was rounded to 3).
// Run: node --import tsx --test test/web/units.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactDetail, artifactName, defaultJobName } from '../../web/src/lib/names.js';
import { bytes, fieldLabel, formatNumber, formatValue, numberText, unitOf, usd } from '../../web/src/lib/units.js';

describe('console numbers: the precision of each unit', () => {
  it('energies in Eh to 6 decimals', () => {
    assert.equal(formatNumber('energy_hartree', -39.62345678), '-39.623457');
    assert.equal(formatNumber('gibbs_hartree', -5.0704), '-5.070400');
    assert.equal(formatNumber('lowest_energy_eh', -1.5), '-1.500000');
  });
  it('kcal/mol to 2 decimals, whatever the spelling of the suffix', () => {
    assert.equal(formatNumber('relative_kcal', 0.6087), '0.61');
    assert.equal(formatNumber('relative_kcal', 0), '0.00');
    assert.equal(formatNumber('score_kcal_mol', -6.1234), '-6.12');
    assert.equal(formatNumber('heat_of_formation_kcal_mol', -56.789), '-56.79');
  });
  it('money in dollars to 4 decimals, as elsewhere in the console', () => {
    assert.equal(formatNumber('cost_usd', 0.00042), '$0.0004');
    assert.equal(formatNumber('charged_amount', 1.5), '$1.5000');
    assert.equal(usd(null), '–');
    assert.equal(usd(4.999594), '$4.9996', 'the wallet as the rest of the console');
  });
  it('money where a place asks for its digits: the ledger and a turn to the micro-dollar, prices and key ceilings to the cent', () => {
    assert.equal(usd(-0.000406, { digits: 6, move: true }), '−$0.000406');
    assert.equal(usd(5, { digits: 6, move: true }), '+$5.000000');
    assert.equal(usd(0, { digits: 6, move: true }), '–');
    assert.equal(usd(0.003889, { digits: 6 }), '$0.003889');
    assert.equal(usd(10, { digits: 2 }), '$10.00');
  });
  it('one number formatter: decimals, significant digits, a sign, a dash for none', () => {
    assert.equal(numberText(180.15894, 2), '180.16');
    assert.equal(numberText(0.6087, 2, { sign: true }), '+0.61');
    assert.equal(numberText(-0.5, 2, { sign: true }), '-0.50');
    assert.equal(numberText(0.123456, 4, { significant: true }), '0.1235');
    assert.equal(numberText(null, 2), '–');
    assert.equal(numberText(Number.NaN, 2), '–');
    assert.equal(bytes(4198), '4.1 KiB');
    assert.equal(bytes(50 * 1024 ** 3), '50.00 GiB');
  });
  it('wavenumbers, intensities, angles, temperatures, entropies', () => {
    assert.equal(formatNumber('frequencies_cm1', 1652.4567), '1652.5');
    assert.equal(formatNumber('lowest_frequency_cm1', -3.04), '-3.0');
    assert.equal(formatNumber('ir_intensities_km_mol', 12.3456), '12.35');
    assert.equal(formatNumber('angle_deg', 70), '70.0');
    assert.equal(formatNumber('temperature_k', 298.15), '298.15');
    assert.equal(formatNumber('entropy_cal_mol_k', 64.1234), '64.12');
    assert.equal(formatNumber('rmsd_lb', 1.23456), '1.23');
  });
  it('fields without a unit: integers as they are, others to 3 decimals', () => {
    assert.equal(formatNumber('mw', 180.15894), '180.159');
    assert.equal(formatNumber('n_imaginary', 2), '2');
    assert.equal(formatNumber('top_k', 5), '5', 'top_k is not a temperature');
    assert.equal(unitOf('top_k'), null);
    assert.equal(formatValue('name', 'aspirin'), 'aspirin');
    assert.equal(formatValue('converged', true), 'true');
    assert.equal(formatValue('energy_hartree', null), '–');
  });
});

describe('console labels: words and units from the field name', () => {
  it('a unit suffix becomes the unit in brackets', () => {
    assert.equal(fieldLabel('temperature_k'), 'Temperature (K)');
    assert.equal(fieldLabel('energy_window_kcal'), 'Energy window (kcal/mol)');
    assert.equal(fieldLabel('energy_hartree'), 'Energy (Eh)');
    assert.equal(fieldLabel('frequencies_cm1'), 'Frequencies (cm⁻¹)');
    assert.equal(fieldLabel('ir_intensities_km_mol'), 'IR intensities (km/mol)');
    assert.equal(fieldLabel('start_deg'), 'Start (°)');
    assert.equal(fieldLabel('rmsd_threshold'), 'RMSD threshold (Å)');
    assert.equal(fieldLabel('homo_lumo_gap_ev'), 'HOMO LUMO gap (eV)');
  });
  it('words written their own way, and whole labels', () => {
    assert.equal(fieldLabel('ph'), 'pH');
    assert.equal(fieldLabel('pdb_id'), 'PDB ID');
    assert.equal(fieldLabel('smiles'), 'SMILES');
    assert.equal(fieldLabel('max_conformers'), 'Max conformers');
    assert.equal(fieldLabel('input_artifact_id'), 'Input (from the library)');
    assert.equal(fieldLabel('num_modes'), 'Poses per ligand');
    assert.equal(fieldLabel('cost_usd'), 'Cost', 'money is shown with its $ sign, not a unit');
  });
  it("the chemistry questions' fields: pKa, BDE, C–H, Fukui indices", () => {
    assert.equal(fieldLabel('pka'), 'pKa');
    assert.equal(formatNumber('pka', 4.51), '4.51', 'a pKa to 2 decimals, as the pka job gives it');
    assert.equal(fieldLabel('pka_sites'), 'pKa sites');
    assert.equal(fieldLabel('bde_kcal_mol'), 'BDE (kcal/mol)');
    assert.equal(fieldLabel('weakest_ch_bde_kcal_mol'), 'Weakest C–H BDE (kcal/mol)');
    assert.equal(fieldLabel('weakest_ch_bond'), 'Weakest C–H bond');
    assert.equal(fieldLabel('dominant_smiles'), 'Dominant SMILES');
    assert.equal(fieldLabel('f_plus'), 'f⁺');
    assert.equal(fieldLabel('top_f_minus_atom'), 'Top f⁻ atom');
    assert.equal(fieldLabel('ip_ev'), 'IP (eV)');
  });
});

describe('console names', () => {
  it("a job's default name: its type and its first molecule, or its set, or the time", () => {
    assert.equal(defaultJobName('frequencies', ['CCO'], null), 'frequencies of CCO');
    assert.equal(defaultJobName('properties', ['CCO', 'c1ccccc1O', ''], null), 'properties of CCO and 1 more');
    assert.equal(defaultJobName('optimize', ['CCO ethanol'], null), 'optimize of ethanol');
    assert.equal(defaultJobName('docking', [], 'three molecules'), 'docking of three molecules');
    assert.equal(defaultJobName('wait', [''], null, new Date(2026, 10, 29, 8, 5)), 'wait 2026-11-29 08:05');
    assert.ok([...defaultJobName('scan', ['C'.repeat(500)], null)].length < 80);
  });
  it('a library item made by a job is named after the job; an upload by its own name', () => {
    const job = { name: 'frequencies: plot, structures, table', origin: 'job', job_name: 'water frequencies', job_type: 'frequencies', port: 'plot' };
    assert.equal(artifactName(job), 'water frequencies');
    assert.equal(artifactDetail(job), 'frequencies · plot');
    assert.equal(artifactName({ ...job, job_name: null }), 'frequencies: plot, structures, table', 'the job was deleted');
    const upload = { name: 'three molecules', origin: 'upload', job_name: null, job_type: 'upload', port: 'molecules' };
    assert.equal(artifactName(upload), 'three molecules');
    assert.equal(artifactDetail(upload), '');
  });
});
