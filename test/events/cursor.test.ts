// Unit tests of the cursor encoding (pure): round trip, size, binding to account and secret.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CURSOR_LENGTH, decodeCursor, encodeCursor } from '../../src/modules/events/cursor.js';

const secret = crypto.randomBytes(32);
const user = crypto.randomUUID();

describe('event cursors', () => {
  it('round-trip every position, always 26 characters of base64url behind a version prefix', () => {
    assert.equal(CURSOR_LENGTH, 26);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (pos) => {
        const c = encodeCursor(secret, user, pos);
        assert.equal(c.length, CURSOR_LENGTH);
        assert.ok(c.length <= 41);
        assert.match(c, /^e1[A-Za-z0-9_-]{24}$/);
        assert.equal(decodeCursor(secret, user, c), pos);
      }),
    );
    assert.throws(() => encodeCursor(secret, user, -1), RangeError);
    assert.throws(() => encodeCursor(secret, user, 2 ** 48), RangeError);
    assert.throws(() => encodeCursor(secret, user, 1.5), RangeError);
  });

  it('are bound to the account and the secret', () => {
    const c = encodeCursor(secret, user, 42);
    assert.equal(decodeCursor(secret, crypto.randomUUID(), c), null);
    assert.equal(decodeCursor(crypto.randomBytes(32), user, c), null);
  });

  it('reject any single-character change', () => {
    const c = encodeCursor(secret, user, 123456);
    for (let i = 0; i < c.length; i++) {
      for (const ch of ['A', 'z', '_', '0']) {
        if (c[i] === ch) continue;
        const m = c.slice(0, i) + ch + c.slice(i + 1);
        assert.equal(decodeCursor(secret, user, m), null, `changed position ${i} to ${ch}`);
      }
    }
    for (const bad of ['', 'e1', c + '=', c.slice(0, -1), ` ${c.slice(1)}`, c.replace('e1', 'E1')]) assert.equal(decodeCursor(secret, user, bad), null, JSON.stringify(bad));
  });
});
