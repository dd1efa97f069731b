import type { Language } from '../../schemas/incentives/enums.ts';
import { errors, type HttpError } from '../errors.ts';

/**
 * How far the running precompute (the pipeline runs that build the REM and health tables, and loading what
 * they publish) is: the step running now, and the time the whole of it still needs.
 */
export interface PrecomputeProgress {
  /** The step running now, e.g. "simulate clusters". */
  step: string;
  count: number;
  total: number | undefined;
  unit: string;
  /**
   * Time every step still to run needs, when an earlier stage's timing gives a plan; not the running step's
   * own (a step's "1 min left" followed by the next step's "2 min left" misleads a client that waits).
   */
  leftMs: number | undefined;
}

const number = {
  en: new Intl.NumberFormat('en-US'),
  es: new Intl.NumberFormat('es-ES', { useGrouping: true }),
};

/**
 * The progress as a clause of a message, e.g. "now simulate clusters: 3,441 of 13,764 clusters, 25%; about 2 min
 * left in all".
 */
export const precomputeProgressText: Record<Language, (progress: PrecomputeProgress) => string> = {
  en: (p) =>
    `now ${p.step}: ${number.en.format(p.count)}` +
    (p.total === undefined
      ? ` ${p.unit}`
      : ` of ${number.en.format(p.total)} ${p.unit}, ${precomputePercent(p)}%`) +
    (p.leftMs === undefined ? '' : `; about ${timeText(p.leftMs)} left in all`),
  es: (p) =>
    `ahora ${p.step}: ${number.es.format(p.count)}` +
    (p.total === undefined
      ? ` ${p.unit}`
      : ` de ${number.es.format(p.total)} ${p.unit}, ${precomputePercent(p)} %`) +
    (p.leftMs === undefined ? '' : `; quedan unos ${timeText(p.leftMs)} en total`),
};

/** Whole percent of the step done, or null when its total is not known. */
export function precomputePercent(p: PrecomputeProgress): number | null {
  return p.total === undefined || p.total === 0 ? null : Math.floor((p.count / p.total) * 100);
}
/** A time left as people say it: tens of seconds under a minute ("40 s"), else whole minutes ("3 min"). */
const timeText = (ms: number) =>
  ms < 60_000 ? `${Math.max(10, Math.ceil(ms / 10_000) * 10)} s` : `${Math.ceil(ms / 60_000)} min`;

/**
 * The 503 of a route whose data family the served snapshot lacks. While a precompute runs, the client is
 * told to come back when it should be over (5 s to 5 min), or in 30 s when that is not known.
 */
export function notReadyError(message: string, progress: PrecomputeProgress | null): HttpError {
  if (progress === null) return errors.moduleNotReady(message);
  const seconds = progress.leftMs === undefined ? 30 : Math.ceil(progress.leftMs / 1000);
  return errors.moduleNotReady(message, Math.min(300, Math.max(5, seconds)));
}
