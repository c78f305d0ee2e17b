// HTTP Range (RFC 9110 section 14) for downloads: one byte range; several ranges, other
// units or syntax we do not read are ignored (the whole body is served, as the RFC allows).
import type { ByteRange } from '../../storage/storage.js';

export type RangeResult = { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * `header` is the Range header, `ifRange` the If-Range header (an ETag or a date): when it
 * does not match the current representation the whole body is served.
 */
export function parseRange(header: string | undefined, size: number, ifRange: string | undefined, etag: string, lastModified: Date): RangeResult {
  if (!header) return { kind: 'whole' };
  if (ifRange !== undefined) {
    const v = ifRange.trim();
    if (v.startsWith('"') || v.startsWith('W/')) {
      if (v !== etag) return { kind: 'whole' };
    } else {
      const d = Date.parse(v);
      if (!Number.isFinite(d) || Math.floor(lastModified.getTime() / 1000) > Math.floor(d / 1000)) return { kind: 'whole' };
    }
  }
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' };
  if (m[1] === '') {
    // Suffix: the last N bytes.
    const n = Number(m[2]);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - n), end: size - 1 } };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return { kind: 'whole' }; // invalid: ignore
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end } };
}

/** Content-Disposition with an ASCII fallback and the RFC 8187 UTF-8 form. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
