// The Python SDK installs with pip on any Python 3.11 or later, offline, into a fresh venv
// (issue 32 point 12; clients/python/README.md "Install"): its build backend is its own
// (clients/python/build_backend, standard library only), so pip's isolated build needs no
// setuptools, wheel or network. Each python3 found (Debian's, and the first on PATH when it is
// another, such as pyenv's) gets a venv of its own with only pip in it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = path.join(ROOT, 'clients', 'python');
const CI = process.env.CI === 'true' || process.env.CI === '1';

/** The interpreters to try: real paths, each once, 3.11 or later (the package's requires-python). */
function interpreters(): { python: string; version: string; venv: boolean }[] {
  const seen = new Set<string>();
  const out: { python: string; version: string; venv: boolean }[] = [];
  for (const candidate of [process.env.CRUCIBLE_PYTHON, '/usr/bin/python3', 'python3']) {
    if (!candidate) continue;
    const probe = spawnSync(
      candidate,
      ['-c', 'import sys, os; print(os.path.realpath(sys.executable)); print("%d.%d" % sys.version_info[:2]); import venv, ensurepip; print("venv")'],
      { encoding: 'utf8' },
    );
    const [real, version, venv] = (probe.stdout ?? '').trim().split('\n');
    if (!real || !version || seen.has(real)) continue;
    seen.add(real);
    const [major, minor] = version.split('.').map(Number);
    if (major! < 3 || (major === 3 && minor! < 11)) continue;
    out.push({ python: real, version, venv: venv === 'venv' });
  }
  return out;
}

const found = interpreters();
const usable = found.filter((f) => f.venv);
const skip =
  usable.length > 0 || CI
    ? false
    : `no python3 (3.11 or later) with venv and ensurepip: install python3-venv (bash scripts/setup-python.sh); found ${found.map((f) => `${f.python} ${f.version}`).join(', ') || 'none'}`;

describe('pip install ./clients/python in a fresh venv, offline', { skip }, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-pip-'));
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('finds a python3 with venv (CI installs python3-venv)', () => {
    assert.ok(usable.length > 0, `no python3 with venv and ensurepip among ${JSON.stringify(found)}`);
  });

  for (const { python, version } of usable) {
    it(`builds and installs with ${python} (Python ${version}), with pip's build isolation and without it`, () => {
      const src = path.join(work, `src-${version}`);
      fs.cpSync(PACKAGE, src, { recursive: true, filter: (p) => !/(__pycache__|\.egg-info|\/build)$/.test(p) });
      const venv = path.join(work, `venv-${version}`);
      const made = spawnSync(python, ['-m', 'venv', venv], { encoding: 'utf8' });
      assert.equal(made.status, 0, `python -m venv: ${made.stderr}`);
      const venvPython = path.join(venv, 'bin', 'python');
      // Nothing but pip in the venv (ensurepip of Python 3.11 adds setuptools: it goes): no
      // setuptools, no wheel. --no-index: nothing may be downloaded;
      // --no-deps: httpx is a run-time dependency, which a fresh venv cannot have offline.
      const env = { ...process.env, PIP_NO_INPUT: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONDONTWRITEBYTECODE: '1' };
      spawnSync(venvPython, ['-m', 'pip', 'uninstall', '-y', 'setuptools', 'wheel'], { encoding: 'utf8', env });
      const bare = spawnSync(venvPython, ['-c', 'import importlib.util as u; print(u.find_spec("setuptools") is None and u.find_spec("wheel") is None)'], {
        encoding: 'utf8',
      });
      assert.equal(bare.stdout.trim(), 'True', 'the fresh venv has neither setuptools nor wheel');
      for (const flags of [[], ['--no-build-isolation']]) {
        const pip = spawnSync(venvPython, ['-m', 'pip', 'install', '--no-index', '--no-deps', '--force-reinstall', ...flags, src], { encoding: 'utf8', env });
        assert.equal(pip.status, 0, `pip install ${flags.join(' ')} failed:\n${pip.stdout}\n${pip.stderr}`);
        assert.match(pip.stdout, /Successfully installed crucible-client-0\.1\.0/);
      }
      const meta = spawnSync(
        venvPython,
        [
          '-c',
          [
            'import importlib.metadata as m, json',
            'd = m.distribution("crucible-client")',
            'print(json.dumps({"license": d.metadata["License"], "requires": d.requires, "python": d.metadata["Requires-Python"], "files": sorted(str(f) for f in d.files)}))',
          ].join('\n'),
        ],
        { encoding: 'utf8', cwd: work },
      );
      assert.equal(meta.status, 0, meta.stderr);
      const m = JSON.parse(meta.stdout) as { license: string; requires: string[]; python: string; files: string[] };
      assert.equal(m.license, 'Apache-2.0');
      assert.equal(m.python, '>=3.11');
      assert.ok(m.requires.includes('httpx>=0.23'), JSON.stringify(m.requires));
      const sources = fs.readdirSync(path.join(PACKAGE, 'crucible_client')).filter((f) => f.endsWith('.py') || f === 'py.typed');
      for (const f of sources) assert.ok(m.files.includes(`crucible_client/${f}`), `the wheel installs crucible_client/${f}`);
      assert.ok(m.files.includes('crucible_client-0.1.0.dist-info/LICENSE'), 'the licence travels with the wheel');
      // The installed modules compile on this interpreter.
      const compiled = spawnSync(venvPython, ['-m', 'compileall', '-q', path.join(venv, 'lib', `python${version}`, 'site-packages', 'crucible_client')], { encoding: 'utf8' });
      assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    });
  }
});
