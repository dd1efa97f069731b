import type { AuditFinding, Manifest } from '../../schemas/lake.ts';

/** Examples named per finding in the paragraph (the manifest and `lake diff` have them all). */
const EXAMPLES_SHOWN = 3;

const describeFinding = (finding: AuditFinding): string => {
  const examples = finding.examples ?? [];
  const shown = examples.slice(0, EXAMPLES_SHOWN).join('; ');
  const more = (finding.count ?? examples.length) - Math.min(examples.length, EXAMPLES_SHOWN);
  const detail = shown === '' ? '' : ` (${shown}${more > 0 ? `; ${more} more` : ''})`;
  return `${finding.table}: ${finding.message}${detail}`;
};

/**
 * What tripped and what to do, in one paragraph: each held table with its partitions before → after and
 * examples, then how to review the snapshot and publish it, or leave CURRENT as it is.
 */
export function holdReport(manifest: Pick<Manifest, 'id' | 'hold'>): string {
  const hold = manifest.hold;
  if (hold === undefined) throw new Error(`snapshot ${manifest.id} is not held`);
  return (
    `Snapshot ${manifest.id} was written but held for review, not published: compared with the published ` +
    `snapshot ${hold.against}, ${hold.findings.map(describeFinding).join('; ')}. ` +
    `What is served is unchanged. Review it with \`npm run lake -- diff ${manifest.id}\`; if the change is ` +
    `real, publish it with \`npm run lake -- publish ${manifest.id} --reason "<why>"\`; if not, fix the ` +
    `source and run the pipeline again.`
  );
}
