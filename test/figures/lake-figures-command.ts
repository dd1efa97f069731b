import { localLake } from '../../data-lake/lake.ts';
import { runMain, UsageError } from '../../lib/cli-main.ts';
import { openSqlSession, type SqlSession } from '../../data-lake/cli/sql-session.ts';
import { snapshotDir } from '../../data-lake/lake-paths.ts';
import { readManifest } from '../../data-lake/manifest-file.ts';
import { writeFigures } from './figure-files.ts';

/**
 * A command that reads a set of figures from a lake (its published snapshot, or the one named) and writes them:
 * `npm run <script> -- <lake dir> [snapshot id]`.
 */
export function runLakeFiguresCommand(
  set: string,
  script: string,
  figuresOf: (session: SqlSession, lakeDir: string) => Promise<unknown>,
): void {
  runMain(async () => {
    const [lakeDir, snapshotId] = process.argv.slice(2);
    if (!lakeDir) throw new UsageError(`usage: npm run ${script} -- <lake dir> [snapshot id]`);
    const session = await openSqlSession(localLake(lakeDir), snapshotId);
    try {
      const changed = await writeFigures(set, await figuresOf(session, lakeDir));
      console.log(
        `${set} figures of ${session.snapshotId} written; docs re-rendered: ${changed.join(', ') || 'none'}`,
      );
    } finally {
      session.close();
    }
    return 0;
  });
}

/** The session's snapshot's creation time and the homes per cluster its REM clusters were drawn with. */
export async function snapshotOrigin(
  session: SqlSession,
  lakeDir: string,
): Promise<{ createdAt: string; remSamples: number }> {
  const manifest = await readManifest(snapshotDir(lakeDir, session.snapshotId));
  const remSamples = manifest.tables.rem_clusters?.settings?.REM_SAMPLES;
  if (typeof remSamples !== 'number')
    throw new UsageError('the snapshot has no rem_clusters table with REM_SAMPLES');
  return { createdAt: manifest.createdAt, remSamples };
}
