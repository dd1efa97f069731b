import { codeFingerprint } from '../lib/code-fingerprint.ts';

/**
 * The code a simulate worker runs a unit with: the worker thread and everything it imports (sampler and its
 * parameter tables, features, physics, surrogate, statistics, health bins). Its hash is in every work unit's
 * fingerprint, so changed model code recomputes the clusters, and a worker elsewhere refuses units of other
 * code. It is taken from the sources, never bumped by hand.
 */
export const SIMULATE_CODE: readonly URL[] = [new URL('./worker-thread.ts', import.meta.url)];

/** SHA-256 (hex) of the simulate code as it is in this checkout. */
export const simulateCodeHash = (): string => codeFingerprint(SIMULATE_CODE).hash;

/** The short form units, results and lake rows name the code by: 12 hex digits of its hash. */
export const codeVersionOf = (hash: string): string => hash.slice(0, 12);
