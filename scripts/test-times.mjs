// Preloaded (`--import`) into the processes of `npm test` by scripts/run-tests.mjs: a test file's
// own process appends one JSON line ({ file, ms, cpuMs, failed }) to CRUCIBLE_TEST_TIMES when it
// exits, `ms` being its life from start to exit and `cpuMs` the CPU time it and the children it
// waited for (servers it started, engines) used, where /proc tells it (Linux). run-tests.mjs reads them back to print the slowest files,
// so a CI log says where its minutes went (README.md, "Test it"). A node:test reporter cannot
// time files: the runner reports a file's events in file order, so a file's events can arrive
// long after they happened.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const out = process.env.CRUCIBLE_TEST_TIMES;
const file = process.argv[1];
// NODE_TEST_CONTEXT is set in the runner's children (one per file), not in the runner itself.
if (out && isMainThread && process.env.NODE_TEST_CONTEXT && file && /\.test\.ts$/.test(file)) {
  process.on('exit', (code) => {
    fs.appendFileSync(out, `${JSON.stringify({ file, ms: Math.round(performance.now()), cpuMs: cpuMs(), failed: code !== 0 })}\n`);
  });
}

/** utime + stime + cutime + cstime of this process in ms (fields 14 to 17 of /proc/self/stat, in clock ticks of 10 ms), or null off Linux. */
function cpuMs() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((n, f) => n + Number(f), 0) * 10;
  } catch {
    return null;
  }
}
