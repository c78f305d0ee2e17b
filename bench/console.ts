// The web console's first load (issue 28: under 1 s on loopback, the JavaScript gzipped under
// 1 MB; docs/performance.md, "Web console"). A fresh Chromium context (empty cache) per load
// opens /app/#/molecules on an in-process server and reads the Navigation Timing entry
// (loadEventEnd - startTime) and the scripts' encodedBodySize (gzipped bytes on the wire). The
// baseline, in the same run and interleaved: the same navigation of /api/v1/health/live (a few bytes of
// JSON from the same server), so a loaded machine shows as a high baseline, not a slow console.
// Run: npm run bench:console [-- --reps 30]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startInstance } from './lib/instance.js';

const reps = Number(process.argv[process.argv.indexOf('--reps') + 1] || 0) || 30;
const root = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CRUCIBLE_CHROMIUM ?? '/usr/bin/chromium';

interface Load {
  ms: number;
  jsBytes: number;
  scripts: number;
}

async function load(browser: Browser, url: string, ready?: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    if (ready) await page.getByRole('heading', { name: ready }).waitFor();
    return await page.evaluate(() => {
      type Entry = { name: string; startTime: number; loadEventEnd: number; encodedBodySize: number };
      const perf = (globalThis as unknown as { performance: { getEntriesByType(t: string): Entry[] } }).performance;
      const nav = perf.getEntriesByType('navigation')[0]!;
      const scripts = perf.getEntriesByType('resource').filter((r) => r.name.endsWith('.js'));
      return { ms: nav.loadEventEnd - nav.startTime, jsBytes: scripts.reduce((n, r) => n + r.encodedBodySize, 0), scripts: scripts.length };
    });
  } finally {
    await context.close();
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

execFileSync(process.execPath, ['-e', "import('./scripts/build-if-needed.mjs').then((m) => m.buildConsoleIfNeeded())"], { cwd: root, stdio: 'inherit' });
const inst = await startInstance('pglite');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
  // One warm-up of each (the server's first static read, Chromium's first context).
  await load(browser, `${inst.base}/app/#/molecules`, 'Crucible');
  await load(browser, `${inst.base}/api/v1/health/live`);
  const app: Load[] = [];
  const base: Load[] = [];
  for (let i = 0; i < reps; i++) {
    app.push(await load(browser, `${inst.base}/app/#/molecules`, 'Crucible'));
    base.push(await load(browser, `${inst.base}/api/v1/health/live`));
  }
  const ms = app.map((l) => l.ms);
  const bms = base.map((l) => l.ms);
  const ratio = pct(ms, 50) / pct(bms, 50);
  console.log(`first load of /app (${reps} fresh contexts, 1280x800): p50 ${pct(ms, 50).toFixed(0)} ms, p95 ${pct(ms, 95).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`);
  console.log(`baseline /api/v1/health/live, same run:  p50 ${pct(bms, 50).toFixed(0)} ms, p95 ${pct(bms, 95).toFixed(0)} ms; ratio of p50s ${ratio.toFixed(1)}`);
  console.log(`scripts on the first load: ${app[0]!.scripts}, ${(app[0]!.jsBytes / 1024).toFixed(1)} KiB gzipped`);
  console.log(`target: p95 < 1000 ms and < 1 MiB of script: ${pct(ms, 95) < 1000 && app[0]!.jsBytes < 1024 * 1024 ? 'met' : 'NOT met'}`);
} finally {
  await browser.close();
  await inst.close();
}
