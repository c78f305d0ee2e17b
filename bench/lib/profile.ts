// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per area
// (a package under node_modules, a file of src/, Node internals, GC). Idle time and the
// profiler's own work are left out of the busy figures.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  /** Sampled time, idle included. */
  totalMs: number;
  /** Sampled time minus idle: the CPU the process used. */
  busyMs: number;
  /** Requests served while profiling (for per-request figures). */
  requests: number;
  /** Busy CPU per request, µs. */
  busyUsPerRequest: number;
  byArea: { area: string; ms: number; pct: number; usPerRequest: number }[];
  topFunctions: { fn: string; area: string; ms: number; pct: number; usPerRequest: number }[];
}

function area(url: string, fn: string): string {
  if (!url) {
    if (fn === '(garbage collector)') return 'GC';
    if (fn === '(idle)') return 'idle';
    if (fn === '(program)') return 'V8/native (program)';
    return `native ${fn || '(anonymous)'}`;
  }
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  if (pkg !== undefined) return pkg;
  const src = url.match(/\/(src\/.+?)(?:\?.*)?$/)?.[1];
  if (src !== undefined) return src;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] === 'internal' ? url.slice(14).split('/')[0] : url.slice(5)}`;
  return url.replace(/^file:\/\//, '');
}

export function summariseProfile(file: string, requests: number, top = 20): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Samples inside the inspector session (stopping the profiler) are the profiler's own cost.
  const inProfiler = (id: number): boolean => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) if (byId.get(cur)!.callFrame.url === 'node:inspector') return true;
    return false;
  };
  // Self time from samples and their time deltas (more exact than hitCount * interval).
  const selfUs = new Map<number, number>();
  for (const [i, id] of p.samples.entries()) selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const areas = new Map<string, number>();
  const fns = new Map<string, { area: string; us: number }>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    const { functionName, url, lineNumber } = n.callFrame;
    const a = inProfiler(id) ? 'idle' : area(url, functionName); // counted as not busy
    areas.set(a, (areas.get(a) ?? 0) + us);
    if (a === 'idle') continue;
    const key = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/')}:${lineNumber + 1}` : ''}`.trim();
    const f = fns.get(key) ?? { area: a, us: 0 };
    f.us += us;
    fns.set(key, f);
  }
  const busy = total - (areas.get('idle') ?? 0);
  const pct = (us: number) => Math.round((us / busy) * 1000) / 10;
  const perReq = (us: number) => Math.round((us / Math.max(1, requests)) * 100) / 100;
  areas.delete('idle');
  return {
    file,
    totalMs: Math.round(total / 1000),
    busyMs: Math.round(busy / 1000),
    requests,
    busyUsPerRequest: perReq(busy),
    byArea: [...areas].sort((a, b) => b[1] - a[1]).map(([a, us]) => ({ area: a, ms: Math.round(us / 1000), pct: pct(us), usPerRequest: perReq(us) })),
    topFunctions: [...fns]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([fn, v]) => ({ fn, area: v.area, ms: Math.round(v.us / 1000), pct: pct(v.us), usPerRequest: perReq(v.us) })),
  };
}

/** Per-request CPU by area in `a` minus the same area in `base` (largest extra cost first). */
export function areaDelta(a: ProfileSummary, base: ProfileSummary): { area: string; usPerRequest: number; baseUsPerRequest: number; extraUs: number }[] {
  const b = new Map(base.byArea.map((x) => [x.area, x.usPerRequest]));
  const names = new Set([...a.byArea.map((x) => x.area), ...b.keys()]);
  const av = new Map(a.byArea.map((x) => [x.area, x.usPerRequest]));
  return [...names]
    .map((area) => {
      const u = av.get(area) ?? 0;
      const bu = b.get(area) ?? 0;
      return { area, usPerRequest: u, baseUsPerRequest: bu, extraUs: Math.round((u - bu) * 100) / 100 };
    })
    .sort((x, y) => y.extraUs - x.extraUs);
}

/**
 * Runs `fn` under the V8 sampling profiler (200 µs) when `on`; prints where the busy time went,
 * per one of `n` units of work (a turn, a run), and the .cpuprofile's file.
 */
export async function profiledIf<T>(on: boolean, label: string, n: number, fn: () => Promise<T>): Promise<T> {
  if (!on) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crucible-prof-')), `${label}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    const sum = summariseProfile(file, n, 25);
    console.log(`[${label}] profile ${file}: ${sum.totalMs} ms sampled, ${sum.busyMs} ms busy (${Math.round(sum.busyUsPerRequest / 100) / 10} ms per unit of ${n})`);
    for (const a of sum.byArea.slice(0, 15)) console.log(`    ${a.pct}%  ${a.ms} ms  ${a.area}`);
    for (const f of sum.topFunctions) console.log(`    ${f.pct}%  ${f.ms} ms  ${f.fn}`);
  }
}
