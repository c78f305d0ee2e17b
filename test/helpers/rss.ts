// Peak resident memory while a transfer runs, for the tests that bound a stream's memory.
//
// The bound is on what the transfer holds, not on garbage V8 has yet to collect: V8 collects
// freed Buffers (the S3 client's 8 MiB parts, the spool's chunks) only once 64 MiB more of them
// have been allocated since its last collection, so without a collection a streamed transfer's
// resident memory drifts up by that much, more under load (CI measured +123 MiB on a 200 MiB S3
// upload holding ~30 MiB, and +57 MiB on a 100 MiB one). The sampler collects before each
// sample; a transfer that held the object would still show it, as it is alive.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

export interface RssSampler {
  /** Takes a last sample and stops: the resident memory at the start, the peak and their difference. */
  stop(): { base: number; peak: number; growth: number };
}

/** Samples resident memory every `everyMs` (after a collection) from now until stop(). */
export function rssSampler(everyMs = 100): RssSampler {
  collect();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = () => {
    collect();
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { base, peak, growth: peak - base };
    },
  };
}
