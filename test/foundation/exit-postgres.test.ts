// `crucible serve` and `crucible worker` on PostgreSQL: each kind of start/stop cycle once, each
// clean and within the shutdown deadline (exit-cycles.ts; the 50-cycle run is `npm run bench:exit`).
import { describe } from 'node:test';
import { serveCycles, workerCycles } from './exit-cycles.js';

describe('serve and worker exit within the shutdown deadline after SIGTERM, every time [postgres]', () => {
  serveCycles('postgres');
  workerCycles();
});
