// Adam on one flat Float32Array of parameters, for the fused training path (docs/models.md,
// "Training defaults and where they come from"): PyTorch's update, as tfjs's AdamOptimizer computes it for the tfjs path:
//   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
//   w -= lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
// Moments are float32 (as PyTorch and tfjs keep them); each update is computed in double
// precision and rounded once. No weight decay.

export class Adam {
  private readonly m: Float32Array;
  private readonly v: Float32Array;
  private t = 0;

  constructor(
    size: number,
    private readonly beta1 = 0.9,
    private readonly beta2 = 0.999,
    private readonly eps = 1e-8,
  ) {
    this.m = new Float32Array(size);
    this.v = new Float32Array(size);
  }

  /** One step: params -= the update for gradients `g` at learning rate `lr`. */
  step(params: Float32Array, g: Float32Array, lr: number): void {
    this.t++;
    const { m, v, beta1: b1, beta2: b2, eps } = this;
    const c1 = 1 - b1 ** this.t;
    const c2 = 1 - b2 ** this.t;
    for (let i = 0; i < params.length; i++) {
      const gi = g[i] as number;
      const mi = b1 * (m[i] as number) + (1 - b1) * gi;
      const vi = b2 * (v[i] as number) + (1 - b2) * gi * gi;
      m[i] = mi;
      v[i] = vi;
      params[i] = (params[i] as number) - (lr * (mi / c1)) / (Math.sqrt(vi / c2) + eps);
    }
  }
}
