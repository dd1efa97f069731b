import type { z } from 'zod';

/**
 * The figures the docs quote, one file per set under docs/figures/, each with the command that writes it and
 * how each part of it reads in the docs. The docs hold only what these render (test/figures/figure-files.test.ts).
 */
export interface FigureSet<T> {
  /** The command that measures or computes the set and writes its file. */
  command: string;
  schema: z.ZodType<T>;
  parts: Record<string, (figures: T) => string>;
}
