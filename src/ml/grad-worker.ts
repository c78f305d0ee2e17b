// A gradient thread of the data-parallel fused training (grad-pool.ts; docs/models.md,
// "Speed"): holds the training molecules of one run and, for each batch, claims parts of it on
// the shared board (grad-protocol.ts) and computes their gradients with its own FusedNet, until
// no part is left; the training thread claims parts of the same batch meanwhile.
import { parentPort } from 'node:worker_threads';
import type { MolFeatures } from './featurize.js';
import { FusedNet } from './fused.js';
import { boardViews, claim, computePart, type Board, type GradReply, type GradRequest } from './grad-protocol.js';
import { setThreadNice } from './nice.js';

let state: { net: FusedNet; mols: MolFeatures[]; board: Board } | null = null;

function handle(msg: GradRequest): GradReply | null {
  if (msg.kind === 'init') {
    if (msg.nice !== null) setThreadNice(msg.nice);
    state = { net: new FusedNet(msg.arch), mols: msg.mols, board: boardViews(msg.board, msg.size, msg.capacity) };
    return { kind: 'ready' };
  }
  if (msg.kind === 'release') {
    state = null;
    return null;
  }
  if (!state) throw new Error('the gradient thread has no training run');
  const { net, mols, board } = state;
  let loaded = false;
  for (let k = claim(board); k >= 0; k = claim(board)) {
    if (!loaded) net.setParams(board.weights);
    loaded = true;
    computePart(net, mols, board, k, msg.denominator, msg.seed, msg.loss);
  }
  return { kind: 'done' };
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
