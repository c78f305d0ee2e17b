// Engine tools outside a job (docs/engines.md, "The engine runtime"): the engines this process
// found, each call through runEngine as a job's are. The calibration scripts and the tests that
// run an engine by hand use them.
import { discoverEngines, engineCall } from './discovery.js';
import { runEngine } from './process.js';
import type { EngineTools } from './tools.js';

/** EngineTools over the engines found on the PATH, on `threads` threads, stopped by `signal`; `pids` collects each call's process. */
export async function localTools(threads = 1, signal = new AbortController().signal, pids: number[] = []): Promise<EngineTools> {
  const engines = await discoverEngines();
  return {
    threads,
    async run(engine, args, cwd, opts = {}) {
      const found = engines[engine];
      if (!found.available) throw new Error(`${engine} is not available: npm run setup:engines`);
      return runEngine(
        engineCall(found, args, {
          cwd,
          input: opts.input,
          threads: opts.threads ?? threads,
          timeoutMs: opts.timeoutMs ?? 30 * 60_000,
          signal,
          onSpawn: (pid) => pids.push(pid),
          env: opts.env,
        }),
      );
    },
  };
}
