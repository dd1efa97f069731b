import { ThreadPoolFull } from '../../lib/thread-pool.ts';
import { UPGRADES_NEEDING_WATER_HEATER_FUEL } from '../../schemas/rem-api.ts';
import type { Fuel, Upgrade } from '../../schemas/rem.ts';
import { errors } from '../errors.ts';
import { notReadyError, type PrecomputeProgress } from '../http/not-ready.ts';
import type { RemMessages } from './messages.ts';
import type { RemData, RemSnapshot } from './rem-data.ts';

/*
 * The rules both REM savings routes (/rem/address and /rem/profile) apply to a request before answering
 * it, in the order they apply them.
 */

/** The water-heater upgrade replaces a water heater whose fuel the caller must name. */
export function requireWaterHeaterFuel(
  request: { upgrade: Upgrade; water_heater_fuel?: string | undefined },
  text: RemMessages,
): void {
  if (
    request.water_heater_fuel === undefined &&
    UPGRADES_NEEDING_WATER_HEATER_FUEL.includes(request.upgrade)
  ) {
    throw errors.invalid(text.waterHeaterFuelRequired, 'water_heater_fuel');
  }
}

/**
 * The snapshot's REM data, or a 503 (module not ready) while the snapshot has no REM tables yet, saying
 * how far the precompute is when one runs.
 */
export function readyRemData(
  snapshot: RemSnapshot,
  text: RemMessages,
  precompute: PrecomputeProgress | null,
): RemData {
  if (snapshot.data !== null) return snapshot.data;
  throw notReadyError(precompute ? text.remPrecomputing(precompute) : text.remUnavailable, precompute);
}

/** Fuels too rare in the county to estimate (`rem_clusters.supported` false), naming the fuel at fault. */
export function buildingNotSupported(
  heatingFuel: Fuel,
  waterHeaterFuel: Fuel | null,
  place: string,
  text: RemMessages,
) {
  return errors.badRequest(
    text.buildingNotSupported(heatingFuel, waterHeaterFuel, place),
    waterHeaterFuel === null ? 'heating_fuel' : 'water_heater_fuel',
  );
}

/** Seconds a client is told to wait when every REM model thread is busy and their queue is full. */
const MODEL_BUSY_RETRY_AFTER_SECONDS = 1;

/** Model work (a cluster or a profile computed on request), or a 503 with Retry-After when its queue is full. */
export function modelWork<T>(work: Promise<T>, text: RemMessages): Promise<T> {
  return work.catch((error: unknown) => {
    if (!(error instanceof ThreadPoolFull)) throw error;
    throw errors.overloaded(text.modelBusy, MODEL_BUSY_RETRY_AFTER_SECONDS);
  });
}
