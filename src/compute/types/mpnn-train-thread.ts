// The work of an `mpnn_train` job's worker thread (src/compute/threads.ts runs its default
// export): trains the model with progress per epoch, and returns the serialised weights with
// everything the job's result and model card need. Data problems (too few rows, a bad target)
// come back as a failure named JobInputError, which the job reports as the user's input error.
// The thread and its gradient thread run at nice value TRAINING_NICE (Linux), below the API's
// threads: a training job takes the cores the API leaves (docs/models.md, "Speed").
import { AppError } from '../../errors.js';
import type { ThreadWork } from '../threads.js';
import type { TrainingRow } from '../../ml/data.js';
import type { TrainOptions } from '../../ml/options.js';
import { setThreadNice } from '../../ml/nice.js';
import { serializeModel } from '../../ml/serialize.js';
import { trainModel, type TrainResult } from '../../ml/train.js';

export interface TrainThreadInput {
  rows: TrainingRow[];
  options: TrainOptions;
}

export interface TrainThreadOutput {
  weights: Uint8Array;
  result: Omit<TrainResult, 'model' | 'split_rows'>;
  config: Record<string, unknown>;
}

/** The nice value of a training job's threads. */
export const TRAINING_NICE = 10;

const work: ThreadWork<TrainThreadInput, TrainThreadOutput> = async (input, report) => {
  setThreadNice(TRAINING_NICE);
  try {
    const r = await trainModel(
      input.rows,
      input.options,
      (e) => {
        const done = (e.member * e.epochs + e.epoch) / (e.members * e.epochs);
        const val = e.val_metric === null ? 'n/a' : e.val_metric.toFixed(4);
        report(done, `member ${e.member + 1}/${e.members}, epoch ${e.epoch}/${e.epochs}: train loss ${e.train_loss.toFixed(4)}, validation ${val}`, {
          member: e.member + 1,
          members: e.members,
          epoch: e.epoch,
          epochs: e.epochs,
          train_loss: e.train_loss,
          val_metric: e.val_metric,
        });
      },
      undefined,
      { nice: TRAINING_NICE },
    );
    const { model, split_rows: _rows, ...result } = r;
    return { weights: new Uint8Array(serializeModel(model)), result, config: model.config as unknown as Record<string, unknown> };
  } catch (err) {
    if (err instanceof AppError) throw Object.assign(new Error(err.issues?.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ') || err.message), { name: 'JobInputError' });
    throw err;
  }
};

export default work;
