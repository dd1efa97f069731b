import { createHash } from 'node:crypto';

export interface FingerprintInputs {
  sources: { name: string; version: string; contentHash: string }[];
  tables: { name: string; schemaVersion: number }[];
  codeVersion: string;
}

/**
 * What a snapshot is built from, hashed: equal fingerprints mean an equal lake, so a run whose
 * fingerprint matches the published snapshot has nothing to publish. Order of the inputs does not matter.
 */
export function snapshotFingerprint(inputs: FingerprintInputs): string {
  const canonical = {
    sources: inputs.sources
      .map((s) => [s.name, s.version, s.contentHash])
      .sort((a, b) => compare(a[0]!, b[0]!)),
    tables: inputs.tables.map((t) => [t.name, t.schemaVersion] as const).sort((a, b) => compare(a[0], b[0])),
    codeVersion: inputs.codeVersion,
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
