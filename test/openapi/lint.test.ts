// Redocly CLI's recommended rules over /openapi.json, in `npm test` (docs/api-decisions.md,
// "The OpenAPI document"): no error and no warning with redocly.yaml, whose rules turned off
// each say why.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const run = promisify(execFile);
const CLI = path.join(PACKAGE_ROOT, 'node_modules/@redocly/cli/bin/cli.js');

describe('redocly lint of the OpenAPI document', () => {
  let h: Harness;
  let dir: string;
  before(async () => {
    h = await startHarness(BACKENDS[0]);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-openapi-'));
  });
  after(async () => {
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has no error and no warning under the recommended rules (redocly.yaml)', async () => {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, (await h.req('GET', '/openapi.json')).text);
    const { stdout } = await run(process.execPath, [CLI, 'lint', '--config', path.join(PACKAGE_ROOT, 'redocly.yaml'), '--format', 'json', file], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((err: Error & { stdout?: string; stderr?: string }) => {
      // redocly exits 1 when it finds errors; its JSON report is on stdout all the same.
      if (err.stdout) return { stdout: err.stdout };
      throw new Error(`redocly lint failed: ${err.stderr ?? err.message}`);
    });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
    const found = report.problems.map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
    assert.deepEqual(found.slice(0, 20), [], `${report.totals.errors} errors, ${report.totals.warnings} warnings`);
    assert.deepEqual([report.totals.errors, report.totals.warnings], [0, 0]);
  });

  it('turns off only rules whose reason redocly.yaml gives', () => {
    const config = fs.readFileSync(path.join(PACKAGE_ROOT, 'redocly.yaml'), 'utf8');
    const lines = config.split('\n');
    const off = lines.flatMap((l, i) => (/^\s+[a-z0-9-]+: off\s*$/.test(l) ? [i] : []));
    assert.ok(off.length <= 3, `${off.length} rules off`);
    for (const i of off) assert.match(lines[i - 1] ?? '', /^\s+#/, `${lines[i]?.trim()} has its reason above it`);
  });
});
