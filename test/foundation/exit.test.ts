// The shutdown deadline itself (issue 16), with stand-ins for serve (the same stopOnSignals): a
// shutdown that never finishes, a main thread that no longer runs JavaScript and a second signal
// all end the process in time, logging what was pending; a signal during start-up is held until
// the server is attached. The start/stop cycles of the real commands: exit-pglite.test.ts and
// exit-postgres.test.ts.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { childEnv, killGroup, killLeftovers, live, ROOT, sleep } from './exit-cycles.js';

after(killLeftovers);

// ---------------------------------------------------------------------------------------
// The deadline itself, with shutdowns that do not finish (a stand-in for serve: the same
// stopOnSignals, a stop() that never ends).

const STUB = (behaviour: 'never' | 'spin' | 'starting') =>
  behaviour === 'starting'
    ? `
import { pino } from 'pino';
import { logDestination } from ${JSON.stringify(path.join(ROOT, 'src', 'log.ts'))};
import { stopOnSignals } from ${JSON.stringify(path.join(ROOT, 'src', 'http', 'server.ts'))};
const log = pino({ level: 'info' }, logDestination());
const signals = stopOnSignals(5000, log);
process.stdout.write('ready\\n');
// Still starting when the signal comes: attached 500 ms later, with a stop that works.
setTimeout(() => signals.attach({ log, pending: () => 'nothing', stop: async () => { log.info({}, 'stopped'); } }), 500);
setInterval(() => undefined, 1000);
`
    : `
import { pino } from 'pino';
import { logDestination } from ${JSON.stringify(path.join(ROOT, 'src', 'log.ts'))};
import { stopOnSignals } from ${JSON.stringify(path.join(ROOT, 'src', 'http', 'server.ts'))};
const log = pino({ level: 'info' }, logDestination());
stopOnSignals(1500, log).attach({
  log,
  pending: () => 'the stand-in component',
  stop: () => ${behaviour === 'spin' ? 'new Promise(() => { for (;;); })' : 'new Promise(() => setInterval(() => undefined, 1000))'},
});
process.stdout.write('ready\\n');
setInterval(() => undefined, 1000);
`;

async function stub(
  behaviour: 'never' | 'spin' | 'starting',
): Promise<{ child: ChildProcess; output: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', STUB(behaviour)], {
    cwd: ROOT,
    env: childEnv({}),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  live.add(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal, at: performance.now() });
    }),
  );
  setTimeout(() => killGroup(child, 'SIGKILL'), 60_000).unref(); // never left behind
  const deadline = Date.now() + 60_000;
  while (!out.includes('ready\n')) {
    assert.ok(child.exitCode === null && Date.now() < deadline, `the stand-in did not start\n${out}`);
    await sleep(20);
  }
  return { child, output: () => out, exited };
}

async function settled(p: Promise<unknown>): Promise<void> {
  await p;
  await sleep(100); // the last output
}

describe('the shutdown deadline', { concurrency: true }, () => {
  it('a stop() that never ends: killed at the deadline, logging what was pending', async () => {
    const s = await stub('never');
    const t0 = performance.now();
    killGroup(s.child, 'SIGTERM');
    const exit = await s.exited;
    await settled(s.exited);
    const ms = exit.at - t0;
    assert.equal(exit.signal, 'SIGKILL');
    assert.ok(ms >= 1400 && ms < 3000, `exited after ${Math.round(ms)} ms (deadline 1500 ms)`);
    assert.match(s.output(), /"pending":"the stand-in component".*"msg":"shutdown deadline \(1\.5 s\) passed: exiting at once"/);
  });

  it('a main thread that no longer runs JavaScript: the watchdog thread kills the process 2 s after the deadline', async () => {
    const s = await stub('spin');
    const t0 = performance.now();
    killGroup(s.child, 'SIGTERM');
    const exit = await s.exited;
    await settled(s.exited);
    const ms = exit.at - t0;
    assert.equal(exit.signal, 'SIGKILL');
    assert.ok(ms >= 3000 && ms < 6000, `exited after ${Math.round(ms)} ms (deadline 1500 ms + 2000 ms)`);
    assert.match(s.output(), /"pending":"the stand-in component","msg":"shutdown deadline passed and the main thread does not respond/);
  });

  it('a signal during start-up is held, not the default action: the stop runs once the server is attached, exit 0', async () => {
    const s = await stub('starting');
    killGroup(s.child, 'SIGTERM');
    const exit = await s.exited;
    await settled(s.exited);
    assert.deepEqual([exit.code, exit.signal], [0, null], s.output());
    assert.match(s.output(), /"during":"start-up","msg":"shutting down"[\s\S]*"msg":"stopped"/);
  });

  it('a second signal: at once, logging what was pending', async () => {
    const s = await stub('never');
    killGroup(s.child, 'SIGTERM');
    await sleep(200);
    const t0 = performance.now();
    killGroup(s.child, 'SIGINT');
    const exit = await s.exited;
    await settled(s.exited);
    assert.equal(exit.signal, 'SIGKILL');
    assert.ok(exit.at - t0 < 1000, `exited ${Math.round(exit.at - t0)} ms after the second signal`);
    assert.match(s.output(), /"pending":"the stand-in component".*"msg":"second signal \(SIGINT\): exiting at once"/);
  });
});
