import type { SourceParser } from '../source.ts';
import { rewiringAmericaOpenDataParser } from './rewiring-america-open-data.ts';

/** Every source layout the pipeline understands, by `kind` (the `kind` of a sources.json entry). */
export const parsers: SourceParser[] = [rewiringAmericaOpenDataParser];
