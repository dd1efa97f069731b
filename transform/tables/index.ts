import type { LakeTable } from './lake-table.ts';

/** Every table of the lake; the pipeline orders builds by their declared inputs. */
export const lakeTables: LakeTable[] = [];
