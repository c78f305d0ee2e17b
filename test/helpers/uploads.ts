// Uploading one file as an artifact (POST /artifacts, multipart/form-data; docs/artifacts.md,
// "Uploads"), the way most tests make their inputs. test/artifacts/helpers.ts keeps the uploads
// that test the endpoint itself (any status, streamed bodies, idempotency keys).
import assert from 'node:assert/strict';

export interface UploadOptions {
  /** The file part's content type; without it the part goes as application/octet-stream. */
  type?: string;
}

/** Uploads `content` as the file `name` with the Bearer `token`, in `mode`; asserts 201 and returns the artifact id. */
export async function uploadArtifact(
  h: { base: string },
  token: string,
  mode: 'file' | 'molecules',
  name: string,
  content: string | Buffer,
  o: UploadOptions = {},
): Promise<string> {
  const form = new FormData();
  form.append('mode', mode);
  form.append('file', new Blob([content], o.type ? { type: o.type } : {}), name);
  const r = await fetch(`${h.base}/api/v1/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await r.json()) as { id: string };
  assert.equal(r.status, 201, JSON.stringify(body));
  return body.id;
}
