// A trained model as one Buffer:
//
//   bytes 0-7    "CRUCDMPN"
//   bytes 8-11   uint32 LE: length H of the header
//   bytes 12-    the header, UTF-8 JSON: {config, weights: {members, floats}, fingerprints: {count, bytes}}
//   then zero padding to a multiple of 4, the float32 LE weights (member by member, each
//   parameter in config.parameters order, row-major), then the training fingerprints.
import { FP_BYTES } from './fingerprint.js';
import { MODEL_FORMAT, MODEL_FORMAT_VERSION, type ModelConfig, type TrainedModel } from './model.js';

const MAGIC = Buffer.from('CRUCDMPN', 'ascii');

interface Header {
  config: ModelConfig;
  weights: { members: number; floats: number };
  fingerprints: { count: number; bytes: number };
}

const sizeOf = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

export function serializeModel(model: TrainedModel): Buffer {
  const perMember = model.config.parameters.reduce((s, p) => s + sizeOf(p.shape), 0);
  const header: Header = {
    config: model.config,
    weights: { members: model.weights.length, floats: perMember * model.weights.length },
    fingerprints: { count: model.fingerprints.length / FP_BYTES, bytes: model.fingerprints.length },
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = 12 + json.length;
  const weightsAt = start + ((4 - (start % 4)) % 4);
  const out = Buffer.alloc(weightsAt + header.weights.floats * 4 + model.fingerprints.length);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  let at = weightsAt;
  for (const member of model.weights) {
    for (const [i, p] of model.config.parameters.entries()) {
      const w = member[i];
      if (!w || w.length !== sizeOf(p.shape)) throw new Error(`parameter ${p.name} does not have the shape ${JSON.stringify(p.shape)}`);
      for (const v of w) {
        out.writeFloatLE(v, at);
        at += 4;
      }
    }
  }
  out.set(model.fingerprints, at);
  return out;
}

/** Reads a Buffer written by serializeModel; throws on anything else. */
export function loadModel(buf: Uint8Array): TrainedModel {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 12 || !b.subarray(0, 8).equals(MAGIC)) throw new Error('not a Crucible D-MPNN model');
  const len = b.readUInt32LE(8);
  if (12 + len > b.length) throw new Error('truncated model header');
  const header = JSON.parse(b.subarray(12, 12 + len).toString('utf8')) as Header;
  const config = header.config;
  if (config.format !== MODEL_FORMAT || config.format_version > MODEL_FORMAT_VERSION)
    throw new Error(`unsupported model format ${String(config.format)} ${String(config.format_version)}`);
  const start = 12 + len;
  let at = start + ((4 - (start % 4)) % 4);
  if (at + header.weights.floats * 4 + header.fingerprints.bytes !== b.length) throw new Error('the model file has the wrong size');
  const weights: Float32Array[][] = [];
  for (let m = 0; m < header.weights.members; m++) {
    const member: Float32Array[] = [];
    for (const p of config.parameters) {
      const w = new Float32Array(sizeOf(p.shape));
      for (let i = 0; i < w.length; i++) {
        w[i] = b.readFloatLE(at);
        at += 4;
      }
      member.push(w);
    }
    weights.push(member);
  }
  const fingerprints = Uint8Array.from(b.subarray(at, at + header.fingerprints.bytes));
  return { config, weights, fingerprints };
}
