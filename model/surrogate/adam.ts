/** Adam (Kingma & Ba, 2015) over one flat parameter vector, with bias-corrected moment estimates. */
export interface Adam {
  readonly m: Float32Array;
  readonly v: Float32Array;
  step: number;
}

export const ADAM_BETA1 = 0.9;
export const ADAM_BETA2 = 0.999;
const EPSILON = 1e-8;

export function createAdam(parameterCount: number): Adam {
  return { m: new Float32Array(parameterCount), v: new Float32Array(parameterCount), step: 0 };
}

/** Moves params one step against `gradient` at learning rate `rate`. */
export function adamStep(adam: Adam, params: Float32Array, gradient: Float32Array, rate: number): void {
  adam.step++;
  const correction1 = 1 - ADAM_BETA1 ** adam.step;
  const correction2 = 1 - ADAM_BETA2 ** adam.step;
  const stepSize = (rate * Math.sqrt(correction2)) / correction1;
  const { m, v } = adam;
  for (let k = 0; k < params.length; k++) {
    const g = gradient[k]!;
    const mk = ADAM_BETA1 * m[k]! + (1 - ADAM_BETA1) * g;
    const vk = ADAM_BETA2 * v[k]! + (1 - ADAM_BETA2) * g * g;
    m[k] = mk;
    v[k] = vk;
    params[k] = params[k]! - (stepSize * mk) / (Math.sqrt(vk) + EPSILON);
  }
}
