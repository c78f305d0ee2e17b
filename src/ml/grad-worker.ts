// A gradient thread of the data-parallel fused training (grad-pool.ts; docs/models.md,
// "Speed"): holds the training molecules of one run and, for each batch, computes the
// gradients of its part of the batch with its own FusedNet, reading the weights from and
// writing the gradients to the SharedArrayBuffers the training thread gave it.
import { parentPort } from 'node:worker_threads';
import { setThreadNice } from './nice.js';
import type { MolFeatures } from './featurize.js';
import { FusedNet } from './fused.js';
import { ioViews, type GradReply, type GradRequest } from './grad-protocol.js';

interface State {
  net: FusedNet;
  mols: MolFeatures[];
  weights: Float32Array;
  grads: Float32Array;
  idx: Int32Array;
  labels: Float32Array;
}

let state: State | null = null;

function handle(msg: GradRequest): GradReply | null {
  if (msg.kind === 'init') {
    if (msg.nice !== null) setThreadNice(msg.nice);
    const { idx, labels } = ioViews(msg.io, msg.capacity);
    state = { net: new FusedNet(msg.arch), mols: msg.mols, weights: new Float32Array(msg.weights), grads: new Float32Array(msg.grads), idx, labels };
    return { kind: 'ready' };
  }
  if (msg.kind === 'release') {
    state = null;
    return null;
  }
  if (!state) throw new Error('the gradient thread has no training run');
  const { net, mols, weights, grads, idx, labels } = state;
  net.setParams(weights);
  net.load(mols, idx, 0, msg.n);
  net.forward(msg.seed);
  const loss = net.backward(labels, msg.denominator, msg.loss);
  grads.set(net.grads);
  return { kind: 'done', loss };
}

const port = parentPort;
if (port) {
  port.on('message', (msg: GradRequest) => {
    let reply: GradReply | null;
    try {
      reply = handle(msg);
    } catch (err) {
      reply = { kind: 'error', message: err instanceof Error ? err.message : String(err) };
    }
    if (reply) port.postMessage(reply);
  });
}
