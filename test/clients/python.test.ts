// The Python SDK (clients/python, issue 26 point 3; docs/api-decisions.md "Python SDK
// compatibility"): its generated files match what the served /openapi.json generates, it installs
// offline with pip (its own build backend) over Debian's packages (scripts/setup-python.sh), and its pytest suite, README
// walk-through included, passes against a live server on each database.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generatePython, staleFiles } from '../../scripts/clients/generate-python.js';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = path.join(ROOT, 'clients', 'python');
const CI = process.env.CI === 'true' || process.env.CI === '1';

/**
 * The interpreter with the SDK's dependencies: CRUCIBLE_PYTHON, else Debian's (where apt puts
 * python3-httpx; a python3 earlier on PATH, such as pyenv's, does not see it), else python3.
 */
function findPython(): string | null {
  const candidates = [process.env.CRUCIBLE_PYTHON, '/usr/bin/python3', 'python3'].filter((c): c is string => !!c);
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', 'import httpx, pytest, pandas, mypy, venv'], { encoding: 'utf8' });
    if (probe.status === 0) return python;
  }
  return null;
}

/** Runs a command without blocking this process, whose event loop serves the API under test. */
function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

const python = findPython();
const skip = python || CI ? false : 'needs python3 with httpx, pytest, pandas and mypy: bash scripts/setup-python.sh';

describe('the Python SDK', { skip }, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-python-'));
  const venvPython = path.join(work, 'venv', 'bin', 'python');
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  before(() => {
    assert.ok(python, 'a python3 with httpx, pytest, pandas and mypy (bash scripts/setup-python.sh installs them)');
    // A venv that sees Debian's packages, and the package installed into it offline from a copy
    // (a build writes build/ and *.egg-info beside its sources).
    const venv = spawnSync(python, ['-m', 'venv', '--system-site-packages', '--without-pip', path.join(work, 'venv')], { encoding: 'utf8' });
    assert.equal(venv.status, 0, venv.stderr);
    fs.cpSync(PACKAGE, path.join(work, 'src'), { recursive: true, filter: (p) => !/(__pycache__|\.egg-info|build)$/.test(p) });
    // pip's isolated build needs nothing: the package's own build backend (test/clients/python-install.test.ts).
    const pip = spawnSync(venvPython, ['-m', 'pip', 'install', '--no-index', '--disable-pip-version-check', path.join(work, 'src')], {
      encoding: 'utf8',
      env: { ...process.env, PIP_NO_INPUT: '1' },
    });
    assert.equal(pip.status, 0, `pip install --no-index (offline) failed:\n${pip.stdout}\n${pip.stderr}`);
  });

  it('is installed from the package, not imported from the source tree', () => {
    const where = spawnSync(venvPython, ['-c', 'import crucible_client, httpx; print(crucible_client.__file__); print(crucible_client.__version__)'], {
      cwd: work,
      encoding: 'utf8',
    });
    assert.equal(where.status, 0, where.stderr);
    const [file] = where.stdout.trim().split('\n');
    assert.ok(file?.startsWith(path.join(work, 'venv')), `imported from ${file}`);
  });

  it('type-checks (mypy): the package, its tests and the README walk-through', async () => {
    // The walk-through's cells, as tests/test_readme.py runs them.
    const readme = fs.readFileSync(path.join(PACKAGE, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Walk-through'));
    const cells = [...section.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    assert.ok(cells.length >= 8, `${cells.length} cells`);
    fs.writeFileSync(path.join(work, 'readme_walkthrough.py'), cells.join('\n'));
    const mypy = await run(
      venvPython,
      [
        '-m',
        'mypy',
        '--python-version',
        '3.11',
        '--cache-dir',
        path.join(work, 'mypy-cache'),
        '--ignore-missing-imports',
        path.join(PACKAGE, 'crucible_client'),
        path.join(PACKAGE, 'tests'),
        'readme_walkthrough.py',
      ],
      { cwd: work, env: process.env, timeoutMs: 300_000 },
    );
    assert.equal(mypy.status, 0, `mypy:\n${mypy.stdout.slice(-4000)}\n${mypy.stderr.slice(-1000)}`);
    assert.match(mypy.stdout, /Success: no issues found/);
  });

  for (const backend of onlyOn('postgres')) {
    describe(backend.name, () => {
      let h: Harness;
      before(async () => {
        h = await startHarness(backend, {}, { workers: 2 });
      });
      after(async () => h?.close());

      it('generated models and operations match the served /openapi.json', async () => {
        const doc = (await h.req('GET', '/openapi.json')).body;
        assert.deepEqual(staleFiles(generatePython(doc)), [], 'run: node --import tsx scripts/clients/generate-python.ts');
      });

      it('passes its pytest suite (README walk-through included) against the live server', async () => {
        const u = await h.user();
        await h.credit(u.userId, 50);
        const started = Date.now();
        const pytest = await run(venvPython, ['-m', 'pytest', '-p', 'no:cacheprovider', '-q', '-rs', path.join(PACKAGE, 'tests')], {
          cwd: work,
          timeoutMs: 300_000,
          env: { ...process.env, CRUCIBLE_URL: h.base, CRUCIBLE_EMAIL: u.email, CRUCIBLE_PASSWORD: u.password, PYTHONDONTWRITEBYTECODE: '1' },
        });
        assert.equal(pytest.status, 0, `pytest failed:\n${pytest.stdout.slice(-6000)}\n${pytest.stderr.slice(-2000)}`);
        const summary = /(\d+) passed/.exec(pytest.stdout);
        assert.ok(summary && Number(summary[1]) >= 20, `pytest ran its tests: ${pytest.stdout.slice(-500)}`);
        assert.doesNotMatch(pytest.stdout, /skipped|xfail/, 'nothing skipped');
        console.log(`# pytest on ${backend.name}: ${summary[1]} passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      });
    });
  }
});
