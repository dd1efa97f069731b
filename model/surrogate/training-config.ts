import { remOutputGates, remStrata } from './rem-sources.ts';
import type { SurrogateTrainingOptions } from './train-surrogate.ts';
import type { TrainingPlan } from './training-set.ts';

/**
 * The settings `npm run model:train` uses. Bump MODEL_VERSION whenever any of them, the features or the
 * simulator change, and retrain; the committed model card records all of them.
 */
export const MODEL_VERSION = 'rem-surrogate-1.2.0';

export const STRATA_DESCRIPTION =
  'every (state, heating fuel, water-heater fuel), equally weighted; mixes the sampler finds ' +
  'implausible (e.g. fuel-oil heating in Arizona) yield no homes';

export function trainingPlan(homesPerStratum: number): TrainingPlan {
  return { seed: 20_261_121, strata: remStrata(), homesPerStratum, trainShare: 0.8, validationShare: 0.1 };
}

export const DEFAULT_HOMES_PER_STRATUM = 30;

export function trainingOptions(maxEpochs: number): SurrogateTrainingOptions {
  return {
    seed: 7,
    hidden: [96, 64],
    targetTransform: 'log1p',
    minimumFuelWeight: 0.05,
    outputGates: remOutputGates(),
    savingsWeight: 0.2,
    savingsFloor: 0.02,
    fit: {
      maxEpochs,
      batchSize: 128,
      learningRate: 3e-3,
      // Decays to 5 % of the starting rate over the planned epochs.
      learningRateDecay: 0.05 ** (1 / maxEpochs),
      patience: 8,
    },
  };
}

export const DEFAULT_MAX_EPOCHS = 60;
