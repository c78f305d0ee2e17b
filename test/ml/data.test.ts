// Training data checks, options and splits of the D-MPNN library (src/ml/data.ts,
// src/ml/options.ts), and the baselines and metrics the model cards report.
// Run: node --import tsx --test test/ml/data.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../src/errors.js';
import { readCsvTable, parseCsv } from '../../src/ml/csv.js';
import {
  descriptorMatrix,
  meanBaseline,
  murckoScaffold,
  prepareData,
  resolveOptions,
  ridgeBaseline,
  splitData,
  splitIndices,
  trainModel,
  type TrainingRow,
} from '../../src/ml/index.js';
import { classificationMetrics, regressionMetrics } from '../../src/ml/metrics.js';
import { getRDKit, type RDKitModule } from '../../src/chem/rdkit.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ESOL: TrainingRow[] = readCsvTable(fs.readFileSync(path.join(root, 'data/public/esol.csv'), 'utf8')).map((r) => ({
  smiles: (r.smiles ?? '').trim(),
  target: r['measured log solubility in mols per litre'] ?? '',
}));

let rdkit: RDKitModule;
before(async () => {
  rdkit = await getRDKit();
});

/** The issues of the AppError fn throws. */
async function issuesOf(fn: () => unknown): Promise<{ type: string; loc: (string | number)[] }[]> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.code, 'invalid');
    return (err.issues ?? []).map((i) => ({ type: i.type, loc: i.loc }));
  }
  assert.fail('no error thrown');
}

describe('training data', () => {
  test('the public tables read as CSV (quoted names with commas, CRLF line ends)', () => {
    assert.equal(ESOL.length, 1016);
    assert.ok(ESOL.every((r) => r.smiles.length > 0 && Number.isFinite(Number(r.target))));
    const fs2 = readCsvTable(fs.readFileSync(path.join(root, 'data/public/freesolv.csv'), 'utf8'));
    assert.equal(fs2.length, 578);
    assert.deepEqual(Object.keys(fs2[0]!), ['iupac', 'smiles', 'expt', 'calc']);
    assert.deepEqual(parseCsv('a,"b, ""c"""\r\n1,2\r\n'), [
      ['a', 'b, "c"'],
      ['1', '2'],
    ]);
  });

  test('unreadable SMILES are skipped and counted, duplicates keep the first row', () => {
    const rows: TrainingRow[] = [
      ...ESOL.slice(0, 60),
      { smiles: 'not a molecule', target: 1 },
      { smiles: 'C1CC', target: 2 },
      { smiles: ESOL[3]!.smiles, target: 5 },
      { smiles: 'OCC', target: '3.5' },
    ];
    const { data, report } = prepareData(rdkit, rows, 'regression');
    assert.equal(report.rows, 64);
    assert.equal(report.unreadable, 2);
    assert.deepEqual(report.unreadable_rows, [60, 61]);
    // row 62 repeats row 3; ethanol (OCC) is in the first 60 rows as CCO? count what the data says
    const ethanolRows = ESOL.slice(0, 60).filter((r) => r.smiles === 'CCO' || r.smiles === 'OCC').length;
    assert.equal(report.duplicates, 1 + ethanolRows);
    assert.ok(report.duplicate_rows.includes(62));
    assert.equal(data.find((d) => d.row === 3)!.target, Number(ESOL[3]!.target));
    assert.equal(report.used, data.length);
    assert.equal(data.length, 64 - 2 - report.duplicates);
    if (!ethanolRows) assert.equal(data.at(-1)!.target, 3.5);
  });

  test('a non-numeric target is an error at its row', async () => {
    const rows: TrainingRow[] = [...ESOL.slice(0, 60), { smiles: 'CCO', target: 'n/a' }, { smiles: 'CCN', target: '' }];
    assert.deepEqual(await issuesOf(() => prepareData(rdkit, rows, 'regression')), [
      { type: 'ml_target_not_numeric', loc: ['rows', 60, 'target'] },
      { type: 'ml_target_not_numeric', loc: ['rows', 61, 'target'] },
    ]);
  });

  test('a target beyond +-1e6 (or not finite) is an error at its row; the bound itself is accepted', async () => {
    const rows: TrainingRow[] = ESOL.slice(0, 60).map((r, i) => ({ smiles: r.smiles, target: i % 2 ? -1e308 : 1e308 }));
    const issues = await issuesOf(() => prepareData(rdkit, rows, 'regression'));
    assert.equal(issues.length, 60);
    assert.deepEqual(issues[0], { type: 'ml_target_out_of_range', loc: ['rows', 0, 'target'] });
    assert.deepEqual(issues[1], { type: 'ml_target_out_of_range', loc: ['rows', 1, 'target'] });
    const mixed: TrainingRow[] = [
      ...ESOL.slice(0, 60).map((r, i) => ({ smiles: r.smiles, target: i === 0 ? -1e6 : i === 1 ? '1000000' : r.target })),
      { smiles: 'CCO', target: '1e309' },
      { smiles: 'CCN', target: 'Infinity' },
      { smiles: 'CCC', target: 1000000.5 },
    ];
    assert.deepEqual(await issuesOf(() => prepareData(rdkit, mixed, 'regression')), [
      { type: 'ml_target_not_numeric', loc: ['rows', 60, 'target'] },
      { type: 'ml_target_not_numeric', loc: ['rows', 61, 'target'] },
      { type: 'ml_target_out_of_range', loc: ['rows', 62, 'target'] },
    ]);
    const { data } = prepareData(rdkit, mixed.slice(0, 60), 'regression');
    assert.deepEqual([data[0]!.target, data[1]!.target], [-1e6, 1e6]);
  });

  test('a classification target must be 0 or 1', async () => {
    const rows: TrainingRow[] = ESOL.slice(0, 60).map((r, i) => ({ smiles: r.smiles, target: i === 5 ? 2 : i % 2 }));
    assert.deepEqual(await issuesOf(() => prepareData(rdkit, rows, 'classification')), [{ type: 'ml_target_not_binary', loc: ['rows', 5, 'target'] }]);
    const ok = prepareData(
      rdkit,
      rows.filter((_, i) => i !== 5),
      'classification',
    );
    assert.equal(ok.data.length, 59 - ok.report.duplicates);
  });

  test('fewer than 50 usable rows is an error', async () => {
    const rows = [...ESOL.slice(0, 49), { smiles: 'not a molecule', target: 1 }];
    assert.deepEqual(await issuesOf(() => prepareData(rdkit, rows, 'regression')), [{ type: 'ml_too_few_rows', loc: ['rows'] }]);
    assert.deepEqual(await issuesOf(() => trainModel(rows, { epochs: 1 })), [{ type: 'ml_too_few_rows', loc: ['rows'] }]);
  });

  test('options outside the contract ranges are errors at ["options", name]; defaults follow chemprop', async () => {
    const d = resolveOptions();
    assert.deepEqual(
      [d.depth, d.hidden_size, d.ffn_layers, d.dropout, d.epochs, d.batch_size, d.learning_rate, d.ensemble_size, d.init_lr, d.final_lr, d.warmup_epochs, d.aggregation],
      [3, 300, 2, 0, 50, 50, 1e-3, 1, 1e-4, 1e-4, 2, 'norm'],
    );
    assert.deepEqual(d.split, { type: 'random', sizes: [0.8, 0.1, 0.1], seed: 0 });
    const issues = await issuesOf(() =>
      resolveOptions({ depth: 7, hidden_size: 31, ffn_layers: 4, dropout: 0.6, epochs: 0, batch_size: 300, ensemble_size: 6, learning_rate: 1, split: { sizes: [0.5, 0, 0.5] } }),
    );
    assert.deepEqual(
      issues.map((i) => i.loc.join('.')).sort(),
      ['batch_size', 'depth', 'dropout', 'ensemble_size', 'epochs', 'ffn_layers', 'hidden_size', 'learning_rate', 'split.sizes'].map((k) => `options.${k}`),
    );
    assert.deepEqual(await issuesOf(() => resolveOptions({ depth: 2.5 })), [{ type: 'ml_option_invalid', loc: ['options', 'depth'] }]);
    assert.equal(resolveOptions({ epochs: 1 }).warmup_epochs, 0);
  });
});

describe('splits', () => {
  test('random split: 80/10/10 of n, seeded, every item once', () => {
    const s = splitIndices(1016, { type: 'random', sizes: [0.8, 0.1, 0.1], seed: 0 });
    assert.deepEqual([s.train.length, s.val.length, s.test.length], [812, 102, 102]);
    assert.deepEqual(
      [...s.train, ...s.val, ...s.test].sort((a, b) => a - b),
      Array.from({ length: 1016 }, (_, i) => i),
    );
    assert.deepEqual(splitIndices(1016, { type: 'random', sizes: [0.8, 0.1, 0.1], seed: 0 }), s);
    assert.notDeepEqual(splitIndices(1016, { type: 'random', sizes: [0.8, 0.1, 0.1], seed: 1 }).test, s.test);
  });

  test('scaffold split keeps each Bemis-Murcko scaffold in one part', () => {
    const data = ESOL.slice(0, 300).map((r) => ({ canonical: r.smiles }));
    const s = splitData(rdkit, data, { type: 'scaffold', sizes: [0.8, 0.1, 0.1], seed: 3 });
    const scaffolds = s.scaffolds!;
    assert.equal(scaffolds.length, 300);
    assert.equal(s.train.length + s.val.length + s.test.length, 300);
    assert.ok(s.train.length <= 240 && s.val.length <= 30 && s.val.length > 0 && s.test.length > 0, JSON.stringify([s.train.length, s.val.length, s.test.length]));
    const part = new Map<string, string>();
    for (const [name, idx] of [
      ['train', s.train],
      ['val', s.val],
      ['test', s.test],
    ] as const) {
      for (const i of idx) {
        const sc = scaffolds[i]!;
        assert.equal(part.get(sc) ?? name, name, `scaffold ${sc} in ${part.get(sc)} and ${name}`);
        part.set(sc, name);
      }
    }
    assert.ok(part.size > 50, `${part.size} scaffolds`);
    assert.equal(murckoScaffold(rdkit, 'CCCC'), '');
  });
});

describe('metrics and baselines', () => {
  test('metrics', () => {
    assert.deepEqual(regressionMetrics([1, 2, 3], [1, 2, 3]), { rmse: 0, mae: 0, r2: 1 });
    const m = regressionMetrics([0, 0, 1, 1], [0, 1, 1, 1]);
    assert.equal(m.rmse, 0.5);
    assert.equal(m.mae, 0.25);
    assert.equal(m.r2, 0);
    assert.deepEqual(classificationMetrics([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), { roc_auc: 0.75, accuracy: 0.75 });
    assert.equal(classificationMetrics([1, 1], [0.2, 0.9]).roc_auc, null);
  });

  test('mean and ridge baselines on descriptors', () => {
    const rows = ESOL.slice(0, 300);
    const { names, rows: x } = descriptorMatrix(
      rdkit,
      rows.map((r) => r.smiles),
    );
    assert.ok(names.length >= 40 && names.includes('CrippenClogP'), names.join(','));
    const y = rows.map((r) => Number(r.target));
    const part = (a: number, b: number) => ({ x: x.slice(a, b) as number[][], y: y.slice(a, b) });
    const ridge = ridgeBaseline(part(0, 200), part(200, 250), part(250, 300), names);
    const mean = meanBaseline(y.slice(0, 200), y.slice(200, 250), y.slice(250, 300));
    // logP alone explains much of solubility: ridge beats the mean by far
    assert.ok(ridge.test_metrics.rmse < 0.7 * mean.test_metrics.rmse, `ridge ${ridge.test_metrics.rmse}, mean ${mean.test_metrics.rmse}`);
    assert.ok(typeof ridge.detail.lambda === 'number');
  });
});
