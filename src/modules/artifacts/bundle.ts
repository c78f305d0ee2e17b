// The molecule bundle of a `molecules` upload: one JSON line per molecule ({id, smiles, name,
// molblock, metrics}), written from the upload's scratch JSON-lines file and read back by readMolecules.
import fs from 'node:fs';
import readline from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable } from 'node:stream';
import type { MoleculeItem } from './types.js';

export const BUNDLE_MEMBER = 'molecules/all.jsonl';

export async function* readBundle(stream: Readable): AsyncGenerator<MoleculeItem> {
  const decoder = new TextDecoder();
  let rest = '';
  const parse = (line: string): MoleculeItem | null => {
    if (!line.trim()) return null;
    const o = JSON.parse(line) as { id: string; smiles?: string; name?: string; molblock?: string; metrics?: Record<string, number> };
    return {
      id: o.id,
      smiles: o.smiles ?? o.molblock ?? '',
      ...(o.name ? { name: o.name } : {}),
      ...(o.molblock ? { molblock: o.molblock } : {}),
      ...(o.metrics ? { metrics: o.metrics } : {}),
    };
  };
  for await (const chunk of stream) {
    rest += decoder.decode(chunk as Buffer, { stream: true });
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const item = parse(rest.slice(0, nl));
      rest = rest.slice(nl + 1);
      if (item) yield item;
    }
  }
  rest += decoder.decode();
  const last = parse(rest);
  if (last) yield last;
}

/** Lines of a JSON-lines file we wrote ourselves. */
export function jsonLines(file: string): Readable {
  return fs.createReadStream(file);
}

export async function* jsonLinesOf<T>(file: string): AsyncGenerator<T> {
  const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) if (line) yield JSON.parse(line) as T;
}

/** Scratch lines -> bundle lines: {id, smiles, name, molblock, metrics} (no member path, no record text). */
export function bundleLines(): Transform {
  let rest = '';
  const decoder = new StringDecoder('utf8');
  const convert = (line: string) => {
    if (!line) return '';
    const o = JSON.parse(line) as { id: string; smiles?: string; name?: string; molblock?: string; metrics?: Record<string, number> };
    return JSON.stringify({ id: o.id, smiles: o.smiles, name: o.name, molblock: o.molblock, metrics: o.metrics }) + '\n';
  };
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      rest += decoder.write(chunk);
      const cut = rest.lastIndexOf('\n');
      if (cut < 0) return cb();
      const done = rest.slice(0, cut);
      rest = rest.slice(cut + 1);
      cb(null, done.split('\n').map(convert).join(''));
    },
    flush(cb) {
      cb(null, convert(rest + decoder.end()));
    },
  });
}
