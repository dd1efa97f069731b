import { createHash } from 'node:crypto';
import { codeFingerprint } from '../lib/code-fingerprint.ts';
import type { Config } from '../schemas/config.ts';

/**
 * The code that shapes an answer beyond the snapshot and the request: the shell and every route group (and
 * all they import), fingerprinted from the sources, so any change to what runs changes it and a comment
 * edit does not.
 */
const SERVE_CODE: readonly URL[] = [
  new URL('./app.ts', import.meta.url),
  new URL('./route-groups.ts', import.meta.url),
];

/**
 * What, besides the snapshot, the as-of date and the request, decides an answer's bytes: the serving code
 * (and `extraCode`, e.g. the model threads' fingerprint from the composition root) and the settings that
 * change answers. Replicas that run the same code with the same settings have the same version, so their
 * ETags agree; a replica with other code or settings never validates another's tags.
 */
export function answerVersion(config: Config, extraCode: readonly string[] = []): string {
  const settings = {
    GEOCODER: config.GEOCODER,
    GEOCODER_URL: config.GEOCODER_URL,
    REM_SAMPLES: config.REM_SAMPLES,
  };
  return createHash('sha256')
    .update(JSON.stringify([codeFingerprint(SERVE_CODE).hash, ...extraCode, settings]))
    .digest('hex')
    .slice(0, 16);
}
