import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { manifestSchema, type Manifest } from '../schemas/lake.ts';

export const MANIFEST_FILE = 'manifest.json';

export class InvalidManifestError extends Error {
  constructor(file: string, detail: string) {
    super(`manifest ${file} is invalid: ${detail}`);
    this.name = 'InvalidManifestError';
  }
}

/** Reads and validates a snapshot directory's manifest. */
export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, MANIFEST_FILE);
  return parseManifest(await readFile(file, 'utf8'), file);
}

/** Validates a manifest's text; `where` names it in the error. */
export function parseManifest(text: string, where: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidManifestError(where, (error as Error).message);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidManifestError(where, `${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifestSchema.parse(manifest), null, 2)}\n`;
}
