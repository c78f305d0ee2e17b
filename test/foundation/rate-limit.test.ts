import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const backend = BACKENDS[0];

describe('rate limits per credential by tier', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(backend, { CRUCIBLE_TIER_FREE_REQUESTS_PER_MINUTE: '5', CRUCIBLE_TIER_PRO_REQUESTS_PER_MINUTE: '8' });
  });
  after(async () => h?.close());

  it('answers 429 rate-limited with Retry-After and RateLimit-* once the tier figure is used', async () => {
    const u = await h.user({ tier: 'free' });
    const k = await h.key(u.token);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      last = await h.req('GET', '/api/v1/auth/check', { key: k.secret });
      statuses.push(last.status);
      if (i === 0) {
        assert.equal(last.headers.get('ratelimit-limit'), '5');
        assert.equal(last.headers.get('ratelimit-remaining'), '4');
      }
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    assert.equal(last!.body.type, '/api/v1/problems/rate-limited');
    assert.equal(last!.body.retry, 'quota');
    const ra = Number(last!.headers.get('retry-after'));
    assert.ok(ra >= 1 && ra <= 60);
    assert.equal(last!.headers.get('ratelimit-remaining'), '0');
    assert.equal(last!.headers.get('ratelimit-reset'), String(ra));
  });

  it('counts each credential apart and uses the tier of the account', async () => {
    const u = await h.user({ tier: 'pro' });
    const k1 = await h.key(u.token);
    const k2 = await h.key(u.token);
    for (let i = 0; i < 8; i++) assert.equal((await h.req('GET', '/api/v1/auth/check', { key: k1.secret })).status, 200);
    assert.equal((await h.req('GET', '/api/v1/auth/check', { key: k1.secret })).status, 429);
    assert.equal((await h.req('GET', '/api/v1/auth/check', { key: k2.secret })).status, 200, 'another key has its own window');
  });
});
