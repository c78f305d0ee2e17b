// The Python SDK installs with pip on any Python 3.9 or later, offline, into a fresh venv
// (issue 32 point 12; clients/python/README.md "Install"): its build backend is its own
// (clients/python/build_backend, standard library only), so pip's isolated build needs no
// setuptools, wheel or network. Each python3 found (Debian's, the first on PATH when it is
// another, and pyenv's 3.9 and 3.10, the oldest supported) gets a venv of its own with only pip
// in it, then calls a live server through the installed package (httpx from Debian's
// python3-httpx: PyPI is not reachable here).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { onlyOn } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = path.join(ROOT, 'clients', 'python');
const CI = process.env.CI === 'true' || process.env.CI === '1';
/** Where Debian's python3-httpx lives (pure Python: older interpreters can import it too). */
const DEBIAN_SITE = '/usr/lib/python3/dist-packages';
const OLDEST = ['3.9', '3.10'];

/** pyenv's newest build of each of the oldest supported versions, when pyenv has them. */
function pyenvPythons(): string[] {
  const root = path.join(process.env.PYENV_ROOT ?? path.join(os.homedir(), '.pyenv'), 'versions');
  const versions = fs.existsSync(root) ? fs.readdirSync(root) : [];
  return OLDEST.flatMap((minor) => {
    const builds = versions.filter((v) => v.startsWith(`${minor}.`)).sort((a, b) => Number(b.split('.')[2]) - Number(a.split('.')[2]));
    const python = builds.map((v) => path.join(root, v, 'bin', `python${minor}`)).find((p) => fs.existsSync(p));
    return python ? [python] : [];
  });
}

/** The interpreters to try: real paths, each once, 3.9 or later (the package's requires-python). */
function interpreters(): { python: string; version: string; venv: boolean }[] {
  const seen = new Set<string>();
  const out: { python: string; version: string; venv: boolean }[] = [];
  for (const candidate of [process.env.CRUCIBLE_PYTHON, '/usr/bin/python3', 'python3', ...pyenvPythons()]) {
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
    if (major! < 3 || (major === 3 && minor! < 9)) continue;
    out.push({ python: real, version, venv: venv === 'venv' });
  }
  return out;
}

const found = interpreters();
const usable = found.filter((f) => f.venv);
const missing = OLDEST.filter((v) => !usable.some((u) => u.version === v));
const skip =
  usable.length > 0 || CI
    ? false
    : `no python3 (3.9 or later) with venv and ensurepip: install python3-venv (bash scripts/setup-python.sh); found ${found.map((f) => `${f.python} ${f.version}`).join(', ') || 'none'}`;

describe('pip install ./clients/python in a fresh venv, offline', { skip }, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-pip-'));
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  /** Each interpreter's venv once its install passed. */
  const venvs = new Map<string, string>();

  it('finds a python3 with venv (CI installs python3-venv)', () => {
    assert.ok(usable.length > 0, `no python3 with venv and ensurepip among ${JSON.stringify(found)}`);
  });

  it(
    'finds Python 3.9 and 3.10, the oldest supported',
    { skip: missing.length ? `no Python ${missing.join(' or ')} with venv (pyenv install ${missing.join(' ')}): not tried` : false },
    () => {
      for (const v of OLDEST)
        assert.ok(
          usable.some((u) => u.version === v),
          v,
        );
    },
  );

  for (const [i, { python, version }] of usable.entries()) {
    it(`builds and installs with ${python} (Python ${version}), with pip's build isolation and without it`, () => {
      const src = path.join(work, `src-${i}`);
      fs.cpSync(PACKAGE, src, { recursive: true, filter: (p) => !/(__pycache__|\.egg-info|\/build)$/.test(p) });
      const venv = path.join(work, `venv-${i}`);
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
      assert.equal(m.python, '>=3.9');
      assert.ok(m.requires.includes('httpx>=0.23'), JSON.stringify(m.requires));
      const sources = fs.readdirSync(path.join(PACKAGE, 'crucible_client')).filter((f) => f.endsWith('.py') || f === 'py.typed');
      for (const f of sources) assert.ok(m.files.includes(`crucible_client/${f}`), `the wheel installs crucible_client/${f}`);
      assert.ok(m.files.includes('crucible_client-0.1.0.dist-info/LICENSE'), 'the licence travels with the wheel');
      // The installed modules compile on this interpreter.
      const compiled = spawnSync(venvPython, ['-m', 'compileall', '-q', path.join(venv, 'lib', `python${version}`, 'site-packages', 'crucible_client')], { encoding: 'utf8' });
      assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
      venvs.set(python, venv);
    });
  }

  // The installed package against a live server, on each interpreter: httpx comes from Debian's
  // pure-Python python3-httpx (a .pth file appends its directory to the venv's sys.path).
  const httpx = fs.existsSync(path.join(DEBIAN_SITE, 'httpx'));
  for (const backend of onlyOn('pglite')) {
    describe(`a live server (${backend.name})`, { skip: httpx ? false : `no httpx in ${DEBIAN_SITE} (apt install python3-httpx): no live call` }, () => {
      let h: Harness;
      before(async () => {
        h = await startHarness(backend, {}, { workers: 1 });
      });
      after(async () => h?.close());
      const answers = new Map<string, unknown>();

      for (const { python, version } of usable) {
        it(`logs in, describes molecules and lists jobs with ${python} (Python ${version})`, async () => {
          const venv = venvs.get(python);
          assert.ok(venv, `the install with Python ${version} passed`);
          const site = path.join(venv, 'lib', `python${version}`, 'site-packages');
          fs.writeFileSync(path.join(site, 'debian-dist-packages.pth'), `${DEBIAN_SITE}\n`);
          const u = await h.user();
          const out = await run(path.join(venv, 'bin', 'python'), ['-c', LIVE], {
            cwd: work,
            env: { ...process.env, CRUCIBLE_URL: h.base, CRUCIBLE_EMAIL: u.email, CRUCIBLE_PASSWORD: u.password, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: '' },
          });
          assert.equal(out.status, 0, `Python ${version}:\n${out.stdout}\n${out.stderr}`);
          const answer = JSON.parse(out.stdout) as { python: string; module: string; items: string[]; formula: string; mw: number; invalid: unknown; jobs: string; total: number };
          assert.equal(answer.python, version);
          assert.ok(answer.module.startsWith(site), `imported from the venv: ${answer.module}`);
          assert.deepEqual(answer.items.slice(0, 1), ['Description']);
          assert.equal(answer.formula, 'C2H6O');
          assert.ok(Math.abs(answer.mw - 46.069) < 0.001, String(answer.mw));
          assert.equal(answer.jobs, 'ListJobsResponse');
          assert.equal(answer.total, 0);
          // Every version decodes the same answers into the same types.
          const { python: _v, module: _m, ...rest } = answer;
          for (const [other, seen] of answers) assert.deepEqual(rest, seen, `${python} decodes as ${other} does`);
          answers.set(python, rest);
        });
      }
    });
  }
});

/** The walk through the installed package: keyword-only models, then calls to the server. */
const LIVE = `
import json, os, sys
import crucible_client as cc

# The models are made by keyword only, as dataclass(kw_only=True) makes them on 3.10+.
fields = dict(type="about:blank", title="t", status=422, detail="d", instance="/i", request_id="r", retry="validation")
p = cc.Problem(**fields)
assert p.status == 422 and p.errors is None and p.additional_properties == {}, p
assert cc.Problem.from_dict({**fields, "new": 1}) == p and cc.Problem.from_dict({**fields, "new": 1}).additional_properties == {"new": 1}
for bad, needs in ((lambda: cc.Problem(*fields.values()), "positional"), (lambda: cc.Problem(**{**fields, "status": None, "zz": 1}), "zz")):
    try:
        bad()
    except TypeError as err:
        assert needs in str(err), err
    else:
        raise AssertionError("a model took positional arguments or an unknown field")
try:
    cc.Problem(**{k: v for k, v in fields.items() if k != "status"})
except TypeError as err:
    assert "'status'" in str(err), err
else:
    raise AssertionError("a model was made without a required field")
with cc.Client(os.environ["CRUCIBLE_URL"], email=os.environ["CRUCIBLE_EMAIL"], password=os.environ["CRUCIBLE_PASSWORD"]) as c:
    described = c.describe_molecules(smiles=["CCO", "not a molecule"])
    ethanol, invalid = described.items
    jobs = c.list_jobs(limit=5)
print(json.dumps({
    "python": "%d.%d" % sys.version_info[:2],
    "module": cc.__file__,
    "items": [type(i).__name__ for i in described.items],
    "formula": ethanol.properties.formula,
    "mw": ethanol.properties.mw,
    "invalid": invalid.to_dict() if isinstance(invalid, cc.Model) else invalid,
    "jobs": type(jobs).__name__,
    "total": len(jobs.items),
}))
`;

/** Runs a command without blocking this process, whose event loop serves the API under test. */
function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
