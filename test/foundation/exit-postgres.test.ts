// `crucible serve` and `crucible worker` on PostgreSQL: 50 and 6 start/stop cycles, each clean
// and within the shutdown deadline (exit-cycles.ts).
import { describe } from 'node:test';
import { serveCycles, workerCycles } from './exit-cycles.js';

describe('serve and worker exit within the shutdown deadline after SIGTERM, every time [postgres]', () => {
  serveCycles('postgres');
  workerCycles();
});
