// One autocannon run against one URL, with the CPU used by the server and by the load generator.
import autocannon from 'autocannon';
import type { ServerChild } from './children.js';

export interface LoadOptions {
  connections: number;
  durationSec: number;
  warmupSec: number;
  pipelining: number;
}

export interface LoadResult {
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMeanMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Server CPU use during the measured window, in cores (1.0 = one core busy). */
  serverCpuCores: number;
  /** Load generator CPU use during the measured window, in cores. */
  loadgenCpuCores: number;
  /** Server CPU time per request, µs: the cost per request, less sensitive to a busy machine than req/s. */
  serverCpuUsPerRequest: number;
}

function cannon(url: string, headers: Record<string, string>, connections: number, pipelining: number, duration: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections, pipelining, duration }, (err, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result)));
  });
}

export async function measure(server: ServerChild, path: string, headers: Record<string, string>, o: LoadOptions): Promise<LoadResult> {
  const url = server.ready.url + path;
  if (o.warmupSec > 0) await cannon(url, headers, o.connections, o.pipelining, o.warmupSec); // JIT, caches, connections
  const cpu0 = server.cpuSeconds();
  const own0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = await cannon(url, headers, o.connections, o.pipelining, o.durationSec);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const own = process.cpuUsage(own0);
  const cpu1 = server.cpuSeconds();
  return {
    // autocannon's requests.average is the mean of its per-second samples; total / duration is the same figure without sampling edges.
    requestsPerSec: Math.round(r.requests.total / r.duration),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMeanMs: Math.round(r.latency.average * 100) / 100,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    serverCpuCores: Math.round(((cpu1 - cpu0) / wall) * 100) / 100,
    loadgenCpuCores: Math.round(((own.user + own.system) / 1e6 / wall) * 100) / 100,
    serverCpuUsPerRequest: Math.round(((cpu1 - cpu0) / Math.max(1, r.requests.total)) * 1e6 * 10) / 10,
  };
}
