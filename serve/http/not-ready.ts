import type { Language } from '../../schemas/incentives/enums.ts';
import type { TimeLeft } from '../../lib/run-estimate.ts';
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
   * Time every step still to run needs (`PrecomputeTimeLeft`): a range until the work has been timed; not
   * the running step's own (a step's "1 min left" followed by the next step's "2 min left" misleads a
   * client that waits). Undefined when nothing times the precompute.
   */
  left: TimeLeft | undefined;
}

/** What a precompute reports while no step runs (before its first, between two). */
export const preparing = (left: TimeLeft | undefined): PrecomputeProgress => ({
  step: 'preparing',
  count: 0,
  total: undefined,
  unit: 'steps',
  left,
});

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
    (p.left === undefined ? '' : `; about ${timeLeftText(p.left)} left in all`),
  es: (p) =>
    `ahora ${p.step}: ${number.es.format(p.count)}` +
    (p.total === undefined
      ? ` ${p.unit}`
      : ` de ${number.es.format(p.total)} ${p.unit}, ${precomputePercent(p)} %`) +
    (p.left === undefined ? '' : `; quedan unos ${timeLeftText(p.left)} en total`),
};

/** Whole percent of the step done, or null when its total is not known. */
export function precomputePercent(p: PrecomputeProgress): number | null {
  return p.total === undefined || p.total === 0 ? null : Math.floor((p.count / p.total) * 100);
}
/** A time left as people say it: tens of seconds under a minute ("40 s"), else whole minutes ("3 min"). */
const timeText = (ms: number) =>
  ms < 60_000 ? `${Math.max(10, Math.ceil(ms / 10_000) * 10)} s` : `${Math.ceil(ms / 60_000)} min`;

/** A range as people say it: "2–13 min", "40 s–2 min", or one time when both ends read the same ("3 min"). */
export function timeLeftText({ lowMs, highMs }: TimeLeft): string {
  const [low, high] = [timeText(lowMs), timeText(highMs)];
  if (low === high) return low;
  const sameUnit = low.split(' ')[1] === high.split(' ')[1];
  return `${sameUnit ? low.split(' ')[0] : low}–${high}`;
}

/**
 * The 503 of a route whose data family the served snapshot lacks. While a precompute runs, the client is
 * told to come back when it could be over at the soonest (5 s to 5 min), or in 30 s when that is not known.
 */
export function notReadyError(message: string, progress: PrecomputeProgress | null): HttpError {
  if (progress === null) return errors.moduleNotReady(message);
  const seconds = progress.left === undefined ? 30 : Math.ceil(progress.left.lowMs / 1000);
  return errors.moduleNotReady(message, Math.min(300, Math.max(5, seconds)));
}
