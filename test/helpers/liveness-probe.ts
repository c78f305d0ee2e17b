// Asks GET /api/v1/health/live every `everyMs` from a worker thread of its own, so that what the
// test's own thread does (building megabyte bodies, parsing answers) never counts as the
// server's delay: the answer times measure only the server (docs/reliability.md, "Fuzzing").
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';

const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times = [];
let stop = false;
parentPort.on('message', () => (stop = true));
const once = () => new Promise((resolve) => {
  const t0 = performance.now();
  const req = http.get(workerData.url, { agent, timeout: 30000 }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - t0 : Infinity));
  });
  req.on('error', () => resolve(Infinity));
  req.on('timeout', () => req.destroy());
});
(async () => {
  while (!stop) {
    times.push(await once());
    await new Promise((r) => setTimeout(r, workerData.everyMs));
  }
  agent.destroy();
  parentPort.postMessage(times);
})();
`;

export interface LivenessProbe {
  /** Stops asking; the answer times in ms (Infinity: no 200). */
  stop(): Promise<number[]>;
}

export function startLivenessProbe(base: string, everyMs: number): LivenessProbe {
  const w = new Worker(PROBE, { eval: true, workerData: { url: `${base}/api/v1/health/live`, everyMs } });
  const done = new Promise<number[]>((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
  return {
    async stop() {
      w.postMessage('stop');
      const times = await done;
      await w.terminate();
      return times;
    },
  };
}

/** "n probes, median m ms, worst w ms" */
export function probeSummary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `${times.length} probes, median ${(sorted[sorted.length >> 1] ?? NaN).toFixed(1)} ms, worst ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)} ms`;
}

/**
 * A full garbage collection now, so that what the test built before its window (megabyte
 * bodies, hundreds of thousands of lines) is not collected inside it: the harness's server
 * shares this process's heap, and a major collection of that garbage pauses its event loop
 * too (300 ms once on CI). Node exposes `gc` to a fresh context once the flag is set.
 */
export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
