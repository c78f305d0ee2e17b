// Event feed cursors: opaque, at most 41 characters, bound to one account.
//
//   cursor = "e1" + base64url( position as 6 bytes big-endian || first 12 bytes of
//            HMAC-SHA256(secret, "crucible.events.cursor.v1:" + user_id + ":" + position) )
//
// 2 + 24 = 26 characters. The position is the per-account event id the client has read up
// to (0 = before the first event). The MAC makes a forged, mangled or another account's
// cursor detectable (422 at ["query","after"]) and keeps the encoding free to change under
// a new version prefix.
import crypto from 'node:crypto';

export const CURSOR_VERSION = 'e1';
const POSITION_BYTES = 6;
const MAC_BYTES = 12;
export const CURSOR_LENGTH = CURSOR_VERSION.length + Math.ceil(((POSITION_BYTES + MAC_BYTES) * 4) / 3);
const MAX_POSITION = 2 ** (8 * POSITION_BYTES) - 1;
const BODY_RE = /^[A-Za-z0-9_-]+$/;

function mac(secret: Buffer, userId: string, position: number): Buffer {
  return crypto.createHmac('sha256', secret).update(`crucible.events.cursor.v1:${userId}:${position}`).digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(secret: Buffer, userId: string, position: number): string {
  if (!Number.isSafeInteger(position) || position < 0 || position > MAX_POSITION) throw new RangeError(`cursor position out of range: ${position}`);
  const buf = Buffer.alloc(POSITION_BYTES + MAC_BYTES);
  buf.writeUIntBE(position, 0, POSITION_BYTES);
  mac(secret, userId, position).copy(buf, POSITION_BYTES);
  return CURSOR_VERSION + buf.toString('base64url');
}

/** The position a cursor stands for, or null when it is not a cursor this server issued to this account. */
export function decodeCursor(secret: Buffer, userId: string, cursor: string): number | null {
  if (cursor.length !== CURSOR_LENGTH || !cursor.startsWith(CURSOR_VERSION)) return null;
  const body = cursor.slice(CURSOR_VERSION.length);
  if (!BODY_RE.test(body)) return null;
  const buf = Buffer.from(body, 'base64url');
  // Reject non-canonical encodings (trailing bits) so each position has exactly one cursor.
  if (buf.length !== POSITION_BYTES + MAC_BYTES || buf.toString('base64url') !== body) return null;
  const position = buf.readUIntBE(0, POSITION_BYTES);
  const expected = mac(secret, userId, position);
  return crypto.timingSafeEqual(expected, buf.subarray(POSITION_BYTES)) ? position : null;
}
