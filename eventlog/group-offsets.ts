import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../lib/fs/durable-file.ts';

const SUFFIX = '.json';

/** Next offset to deliver, per topic and partition. A partition without an entry starts at 0. */
export type CommittedOffsets = Record<string, Record<string, number>>;

/**
 * The committed offsets of the embedded log's consumer groups: one JSON file per group, replaced
 * atomically on every commit so a crash keeps either the previous or the new offsets.
 */
export class GroupOffsetStore {
  constructor(private readonly directory: string) {}

  /** Ids of every group with committed offsets. */
  async list(): Promise<string[]> {
    const files = await readdir(this.directory);
    return files.filter((f) => f.endsWith(SUFFIX)).map((f) => decodeURIComponent(f.slice(0, -SUFFIX.length)));
  }

  async read(groupId: string): Promise<CommittedOffsets> {
    try {
      const parsed = JSON.parse(await readFile(this.fileOf(groupId), 'utf8')) as {
        offsets: CommittedOffsets;
      };
      return parsed.offsets;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
  }

  async write(groupId: string, offsets: CommittedOffsets): Promise<void> {
    await writeFileAtomically(this.fileOf(groupId), `${JSON.stringify({ groupId, offsets })}\n`);
  }

  private fileOf(groupId: string): string {
    // Group ids are free text; encoding keeps them to one safe file name each.
    return path.join(this.directory, `${encodeURIComponent(groupId)}${SUFFIX}`);
  }
}
