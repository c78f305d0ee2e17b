// The README's "Use it" examples run as written, top to bottom, in one bash shell from the
// repository's root against a freshly started `crucible serve` (embedded database), so the
// README cannot drift from the API. Blocks fenced as ```sh lookups``` reach public services and
// are skipped here. What they write (secrets among it) goes to their $CRUCIBLE_TMP, never into
// the repository: the test checks both.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { crucibleArgv } from '../helpers/cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CI = process.env.CI === 'true' || process.env.CI === '1';

/** The shell blocks of the README's "Use it" section, lookups excluded. */
function readmeScript(readme: string): { script: string; blocks: number } {
  const start = readme.indexOf('## Use it');
  const end = readme.indexOf('\n## ', start + 1);
  assert.ok(start >= 0 && end > start, 'the README has a "Use it" section');
  const section = readme.slice(start, end);
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  return { script: ['set -euo pipefail', ...blocks].join('\n'), blocks: blocks.length };
}

/**
 * What the examples could touch in the repository: the names at its root (where their relative
 * paths land) and the files they read (examples/, data/public/) with sizes and times. Engineers'
 * scratch directories (.scratch*, git-ignored) are left out.
 */
function repositorySnapshot(): string[] {
  const files = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return files(rel);
      const st = fs.statSync(path.join(ROOT, rel));
      return [`${rel} ${st.size} ${st.mtimeMs}`];
    });
  const top = fs.readdirSync(ROOT).filter((n) => !n.startsWith('.scratch'));
  return [...top.sort(), ...files('examples'), ...files(path.join('data', 'public'))];
}

const missing = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

describe('README', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-readme-data-'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-readme-work-'));
  let server: ReturnType<typeof spawn> | null = null;
  after(() => {
    server?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('the "Use it" examples run top to bottom against a started server', { skip: missing.length && !CI ? `needs ${missing.join(', ')}` : false }, async () => {
    assert.deepEqual(missing, [], 'bash, curl and jq are installed');
    const { script, blocks } = readmeScript(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    assert.ok(blocks >= 3, `found ${blocks} runnable blocks`);
    const password = crypto.randomBytes(12).toString('base64url');
    server = spawn(process.execPath, crucibleArgv(['serve']), {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', CRUCIBLE_DATA_DIR: dataDir, CRUCIBLE_ADMIN_PASSWORD: password, LOG_LEVEL: 'warn', CRUCIBLE_WORKERS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line in 120 s: ${out}`)), 120_000);
      server!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Crucible listening on (http:\/\/\S+?) /.exec(out);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      server!.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      server!.on('exit', (code) => reject(new Error(`the server exited (${code}): ${out}`)));
    });
    // From the repository's root, as a reader runs them (they read examples/ and data/public/);
    // mktemp -d makes $CRUCIBLE_TMP under TMPDIR, here a directory of this test's.
    const before = repositorySnapshot();
    const run = spawnSync('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, CRUCIBLE_URL: url, PASSWORD: password, TMPDIR: work }, encoding: 'utf8', timeout: 180_000 });
    assert.equal(run.status, 0, `the README's commands failed:\n${run.stderr}\n${run.stdout.slice(-2000)}`);
    assert.deepEqual(repositorySnapshot(), before, 'the examples write nothing in the repository');
    // What the examples leave behind is what they promise, in their private temporary directory.
    const made = fs.readdirSync(work);
    assert.equal(made.length, 1, `one directory made by mktemp -d: ${made.join(', ')}`);
    const tmp = path.join(work, made[0]!);
    assert.equal(fs.statSync(tmp).mode & 0o777, 0o700, 'only its owner can read it');
    assert.deepEqual(fs.readdirSync(tmp).sort(), ['crucible.bib', 'key.json', 'library.zip', 'phenol.svg', 'run.svg', 'tokens.json', 'triage.json']);
    const key = JSON.parse(fs.readFileSync(path.join(tmp, 'key.json'), 'utf8')) as { api_key: string };
    assert.match(key.api_key, /^crk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32,}$/);
    assert.ok((JSON.parse(fs.readFileSync(path.join(tmp, 'tokens.json'), 'utf8')) as { refresh_token?: string }).refresh_token, 'the tokens are there');
    assert.match(fs.readFileSync(path.join(tmp, 'phenol.svg'), 'utf8'), /<svg[\s\S]*<\/svg>/);
    assert.equal(fs.readFileSync(path.join(tmp, 'library.zip')).subarray(0, 2).toString('latin1'), 'PK', 'the download is a zip');
    assert.match(run.stdout, /cancelled; charged \$/, 'the running wait job was cancelled');
    // The uploads (library, training CSV), the first job's, the utility request's, the training job's, the DFT job's and the pKa job's results (and the library job's, if it finished).
    assert.match(run.stdout, /"artifact_count":(9|10)\b/, "the uploads and the results (two of them a workflow run's steps) are counted");
    assert.match(
      run.stdout,
      /\{"sites":\[\{"atom_index":8,"class":"phenol","pka":[0-9.]+\}\],"dominant_smiles":"CC\(=O\)Nc1ccc\(O\)cc1","dominant_charge":0\}/,
      "paracetamol's phenol, neutral at 7.4",
    );
    assert.match(
      run.stdout,
      /\{"status":"completed","charged_usd":[0-9.e-]+,"steps":\[\{"step_id":"keep","state":"completed"\},\{"step_id":"predict","state":"completed"\}\]\}/,
      'the template run completed',
    );
    assert.match(fs.readFileSync(path.join(tmp, 'run.svg'), 'utf8'), /<svg[\s\S]*data-id="predict"[\s\S]*<\/svg>/, 'the run graph is an SVG');
    assert.match(run.stdout, /"model_names":\["my-esol"\]/, 'the trained model is listed');
    assert.match(run.stdout, /event: plan\n[\s\S]*event: done\ndata: \{"turn_id":"[0-9a-f-]{36}","status":"completed"\}\n/, "the Assistant's turn streamed a plan card and ended");
    assert.match(run.stdout, /\{"status":"approved","run_id":"[0-9a-f-]{36}"\}/, 'the plan card was approved into a run');
    assert.match(run.stdout, /logged out/);
  });
});
