import { createHash } from 'node:crypto';
import { copyFile, link, mkdir, open, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../../lib/fs/durable-file.ts';
import { acquireLock } from '../../lib/fs/lock-file.ts';
import { assertKey, type LakeStore, type StoredObject } from './lake-store.ts';

/**
 * The lake as files under a directory, a key a relative path: the layout LAKE_DIR has always had. Every
 * write is the project's atomic write; a compare-and-swap holds a lock file beside the object while it
 * compares and writes, so processes on this machine swap one at a time.
 */
export class DirectoryStore implements LakeStore {
  readonly location: string;

  constructor(readonly root: string) {
    this.location = path.resolve(root);
  }

  async get(key: string): Promise<StoredObject | null> {
    const body = await readFile(this.file(key)).catch(ifMissing(null));
    return body === null ? null : { body, version: versionOf(body) };
  }

  async put(key: string, body: string | Buffer): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomically(file, body);
  }

  async putIfVersion(key: string, body: string | Buffer, expected: string | null): Promise<boolean> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const lock = await acquireLock(`${file}.lock`, { purpose: `replacing ${key}`, waitMs: 10_000 });
    try {
      const current = await this.get(key);
      if ((current?.version ?? null) !== expected) return false;
      await writeFileAtomically(file, body);
      return true;
    } finally {
      await lock.release();
    }
  }

  async list(prefix: string): Promise<string[]> {
    const found: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(path.join(this.location, dir), { withFileTypes: true }).catch(
        ifMissing([]),
      );
      for (const entry of entries) {
        const key = dir === '' ? entry.name : `${dir}/${entry.name}`;
        if (entry.isDirectory()) await walk(key);
        else if (entry.isFile() && key.startsWith(prefix)) found.push(key);
      }
    };
    // Walk from the deepest directory the prefix names, so a listing of one snapshot reads only it.
    await walk(prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '');
    return found.sort();
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async upload(key: string, file: string): Promise<void> {
    await copyAtomically(file, this.file(key));
  }

  async download(key: string, file: string): Promise<boolean> {
    return copyAtomically(this.file(key), file).then(() => true, ifMissing(false));
  }

  async copy(from: string, to: string): Promise<void> {
    const target = this.file(to);
    await mkdir(path.dirname(target), { recursive: true });
    // Objects copied are immutable table files: a hard link where the file system allows one.
    await link(this.file(from), target).catch(() => copyFile(this.file(from), target));
  }

  localPath(key: string): string {
    return this.file(key);
  }

  private file(key: string): string {
    return path.join(this.location, ...assertKey(key).split('/'));
  }
}

/** Copies a file, in pieces, so that `to` appears whole or not at all. */
async function copyAtomically(from: string, to: string): Promise<void> {
  const source = await open(from, 'r');
  try {
    await mkdir(path.dirname(to), { recursive: true });
    await writeFileAtomically(to, async (handle) => {
      for await (const chunk of source.createReadStream({ autoClose: false }))
        await handle.write(chunk as Buffer);
    });
  } finally {
    await source.close();
  }
}

/** A file's version: a hash of its bytes, so any other content is another version. */
const versionOf = (body: Buffer): string => createHash('sha256').update(body).digest('hex').slice(0, 32);

const ifMissing =
  <T>(value: T) =>
  (error: NodeJS.ErrnoException): T => {
    if (error.code === 'ENOENT') return value;
    throw error;
  };
