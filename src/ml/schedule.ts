// chemprop's learning-rate schedule (its NoamLR / build_NoamLike_LRSched), per optimiser step:
// linear warm-up from init_lr to max_lr over warmup_epochs, then exponential decay from max_lr
// to final_lr over the remaining epochs, final_lr after that.

export interface LrSchedule {
  init_lr: number;
  max_lr: number;
  final_lr: number;
  warmup_epochs: number;
  epochs: number;
  steps_per_epoch: number;
}

export function learningRate(s: LrSchedule, step: number): number {
  const warmup = s.warmup_epochs * s.steps_per_epoch;
  const cooldown = (s.epochs - s.warmup_epochs) * s.steps_per_epoch;
  if (step < warmup) return s.init_lr + (step * (s.max_lr - s.init_lr)) / warmup;
  if (step < warmup + cooldown) return s.max_lr * (s.final_lr / s.max_lr) ** ((step - warmup) / cooldown);
  return s.final_lr;
}
