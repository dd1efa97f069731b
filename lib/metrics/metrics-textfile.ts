import type { Registry } from 'prom-client';
import { writeFileAtomically } from '../fs/durable-file.ts';

/**
 * Writes a registry in the node-exporter textfile collector's format (the exposition text, in a `.prom` file
 * its `--collector.textfile.directory` reads): the way a short-lived process such as a pipeline run leaves
 * metrics a scrape can still find after it has exited. Atomic, so the collector never reads half a file.
 */
export async function writeMetricsTextfile(file: string, registry: Registry): Promise<void> {
  await writeFileAtomically(file, await registry.metrics());
}
