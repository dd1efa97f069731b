import type { RemModel } from '../../schemas/rem-model.ts';
import {
  threadedRemModel,
  type ThreadedRemModelOptions,
} from '../../simulate/on-demand/threaded-rem-model.ts';

/** The REM model as `npm start` supplies it (the committed surrogate on threads), for the specs' servers. */
export const specRemModel = (options: Partial<ThreadedRemModelOptions> = {}): RemModel =>
  threadedRemModel({ threads: 2, maxQueued: 16, ...options });
