import { it } from 'node:test';
import { BACKENDS } from './helpers/backends.js';
import { startHarness } from './helpers/harness.js';
it('harness', async () => {
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  const h = await startHarness(BACKENDS[0]!, {}, { workers: 0 });
  const u = await h.user();
  for (let i = 0; i < 20; i++) await h.req('GET', '/api/v1/wallet', { token: u.token });
  const w1 = performance.now();
  await h.close();
  const d = process.cpuUsage(t0);
  console.log('harness cpu ms', ((d.user + d.system) / 1000).toFixed(0), 'wall', (w1 - w0).toFixed(0), 'before', ((t0.user + t0.system) / 1000).toFixed(0));
});
