import type { Language } from '../../schemas/incentives/enums.ts';
import { errors, type HttpError } from '../errors.ts';

/** How far the running precompute (the pipeline run that builds the REM and health tables) is. */
export interface PrecomputeProgress {
  /** The step running now, e.g. "simulate clusters". */
  step: string;
  count: number;
  total: number | undefined;
  unit: string;
  /** Time the step still needs at its rate so far, when that is known. */
  leftMs: number | undefined;
}

const number = {
  en: new Intl.NumberFormat('en-US'),
  es: new Intl.NumberFormat('es-ES', { useGrouping: true }),
};

/** The progress as a clause of a message, e.g. "simulate clusters: 3,441 of 13,764 clusters, 25%, about 2 min left". */
export const precomputeProgressText: Record<Language, (progress: PrecomputeProgress) => string> = {
  en: (p) =>
    `${p.step}: ${number.en.format(p.count)}` +
    (p.total === undefined
      ? ` ${p.unit}`
      : ` of ${number.en.format(p.total)} ${p.unit}, ${precomputePercent(p)}%`) +
    (p.leftMs === undefined ? '' : `, about ${minutes(p.leftMs)} min left`),
  es: (p) =>
    `${p.step}: ${number.es.format(p.count)}` +
    (p.total === undefined
      ? ` ${p.unit}`
      : ` de ${number.es.format(p.total)} ${p.unit}, ${precomputePercent(p)} %`) +
    (p.leftMs === undefined ? '' : `, quedan unos ${minutes(p.leftMs)} min`),
};

/** Whole percent of the step done, or null when its total is not known. */
export function precomputePercent(p: PrecomputeProgress): number | null {
  return p.total === undefined || p.total === 0 ? null : Math.floor((p.count / p.total) * 100);
}
const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/**
 * The 503 of a route whose data family the served snapshot lacks. While a precompute runs, the client is
 * told to come back when the running step should end (5 s to 5 min); otherwise after the usual minute.
 */
export function notReadyError(message: string, progress: PrecomputeProgress | null): HttpError {
  if (progress === null) return errors.moduleNotReady(message);
  const seconds = progress.leftMs === undefined ? 30 : Math.ceil(progress.leftMs / 1000);
  return errors.moduleNotReady(message, Math.min(300, Math.max(5, seconds)));
}
