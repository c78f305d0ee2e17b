// X-Request-Id: the caller's own when it is a safe token, otherwise a new UUID.
import crypto from 'node:crypto';

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && REQUEST_ID_RE.test(incoming) ? incoming : crypto.randomUUID();
}
