import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DirectoryStore } from '../../../data-lake/store/directory-store.ts';
import { lakeStoreContract } from './lake-store-contract.ts';

lakeStoreContract('a directory (LAKE_DIR)', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'directory-store-'));
  return { store: new DirectoryStore(dir), close: () => rm(dir, { recursive: true, force: true }) };
});
