// Peak memory while a transfer runs, for the tests that bound a stream's memory.
//
// The bound is on what the transfer holds, not on garbage V8 has yet to collect nor on memory
// the allocator keeps after it was freed. V8 collects freed Buffers (the S3 client's 8 MiB
// parts, the spool's chunks) only once 64 MiB more of them have been allocated since its last
// collection, and malloc does not always give freed blocks back to the system: resident memory
// drifts up by both, more under load (CI measured +123 MiB of RSS on a 200 MiB S3 upload holding
// ~30 MiB, and +66 MiB on a 100 MiB one with a collection before each sample). So the sampler
// collects before each sample and measures live memory: V8's heap in use plus the memory of
// Buffers and other objects outside it (`heapUsed + external`). A transfer that held the
// object would show it there, as it is alive. Resident memory is reported beside it.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

export interface Growth {
  /** Peak growth of live memory (heapUsed + external) over the start. */
  live: number;
  /** Peak growth of resident memory over the start (reported, not bounded: see above). */
  rss: number;
}

export interface MemorySampler {
  /** Takes a last sample and stops. */
  stop(): Growth;
}

const live = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;

/**
 * Samples memory every `everyMs` (after a collection) from now until stop(), or less often when
 * a collection is slow: the next sample waits at least 4 times as long as the last collection
 * took, so collecting never takes more than a fifth of the thread. (A forced collection of a
 * process with the embedded database took 300 to 670 ms on a slow 2-core machine under the
 * suite's load: sampled every 200 ms, a 200 MB transfer then ran for minutes in collections.)
 */
export function memorySampler(everyMs = 100): MemorySampler {
  collect();
  const base = process.memoryUsage();
  const peak = { live: live(base), rss: base.rss };
  const sample = (): number => {
    const started = performance.now();
    collect();
    const took = performance.now() - started;
    const m = process.memoryUsage();
    peak.live = Math.max(peak.live, live(m));
    peak.rss = Math.max(peak.rss, m.rss);
    return took;
  };
  let timer: NodeJS.Timeout;
  const next = (took: number) => {
    timer = setTimeout(() => next(sample()), Math.max(everyMs, 4 * took));
  };
  next(0);
  return {
    stop() {
      clearTimeout(timer);
      sample();
      return { live: peak.live - live(base), rss: peak.rss - base.rss };
    },
  };
}
