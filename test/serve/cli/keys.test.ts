import { spawnSync } from 'node:child_process';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { hashApiKey, staticKeyId, type KeyFile } from '../../../serve/auth/api-key.ts';
import { bearerToken } from '../../../serve/auth/bearer-token.ts';
import { ensureKey } from '../../../serve/auth/ensure-key.ts';
import { addKey, KeyCommandError, revokeKey } from '../../../serve/auth/key-commands.ts';
import { keyFilePath, readKeyFile, writeKeyFile } from '../../../serve/auth/key-file.ts';
import { withKeyFileLock } from '../../../serve/auth/key-file-lock.ts';
import { KeyStore } from '../../../serve/auth/key-store.ts';
import { runKeysCli } from '../../../serve/auth/keys-cli.ts';
import { silentLogger } from '../../support/serve-fixtures.ts';

const empty: KeyFile = { version: 1, keys: [] };
const t0 = new Date('2026-11-21T09:00:00.000Z');
const t1 = new Date('2026-11-21T10:00:00.000Z');

let dir: string;
let file: string;
it.beforeEach(({ tempDir }) => {
  dir = tempDir;
  file = keyFilePath(dir);
});

describe('bearerToken', () => {
  it('reads the key of a Bearer header, any case of the scheme', () => {
    expect(bearerToken('Bearer esk_abc')).toBe('esk_abc');
    expect(bearerToken('bearer   esk_abc ')).toBe('esk_abc');
  });
  it('is null for no header, another scheme, an empty or a two-part credential', () => {
    expect(bearerToken(undefined)).toBeNull();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerToken('Bearer ')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
  });
});

describe('addKey / revokeKey', () => {
  it('adds a key holding only its SHA-256, and returns the key once', () => {
    const { file: next, key, stored } = addKey(empty, ' partner ', t0);
    expect(key).toMatch(/^esk_[A-Za-z0-9_-]{43}$/);
    expect(stored).toEqual({
      id: expect.stringMatching(/^key_[0-9a-f]{12}$/),
      name: 'partner',
      hash: hashApiKey(key),
      createdAt: '2026-11-21T09:00:00.000Z',
      revokedAt: null,
    });
    expect(next.keys).toEqual([stored]);
    expect(JSON.stringify(next)).not.toContain(key);
  });

  it('refuses an empty name and a name an active key already has', () => {
    expect(() => addKey(empty, '  ', t0)).toThrow(new KeyCommandError('a key needs a non-empty --name'));
    const once = addKey(empty, 'ci', t0).file;
    expect(() => addKey(once, 'ci', t0)).toThrow('an active key is already named "ci"');
    // A revoked key frees its name.
    const revoked = revokeKey(once, 'ci', t1).file;
    expect(addKey(revoked, 'ci', t1).file.keys).toHaveLength(2);
  });

  it('revokes by id or by active name, once', () => {
    const a = addKey(empty, 'a', t0);
    const b = addKey(a.file, 'b', t0);
    const byId = revokeKey(b.file, a.stored.id, t1);
    expect(byId.revoked).toEqual({ ...a.stored, revokedAt: '2026-11-21T10:00:00.000Z' });
    expect(byId.file.keys[1]).toEqual(b.stored);
    const byName = revokeKey(byId.file, 'b', t1);
    expect(byName.revoked.id).toBe(b.stored.id);
    expect(() => revokeKey(byName.file, a.stored.id, t1)).toThrow(`key ${a.stored.id} is already revoked`);
    expect(() => revokeKey(byName.file, 'nobody', t1)).toThrow('no key with id or active name "nobody"');
  });
});

describe('key file', () => {
  it('reads a missing file as an empty store', async () => {
    expect(await readKeyFile(file)).toEqual(empty);
  });

  it('round-trips, is owner-only and leaves no temporary file', async () => {
    const { file: content } = addKey(empty, 'a', t0);
    await writeKeyFile(file, content);
    expect(await readKeyFile(file)).toEqual(content);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['keys.json']);
  });

  it('names the file and the field when it is malformed', async () => {
    await writeFile(file, '{"version":1,"keys":[{"id":"k","name":"n","hash":"nothex"}]}');
    await expect(readKeyFile(file)).rejects.toThrow(`${file} is not a key file: keys.0.hash:`);
    await writeFile(file, '{');
    await expect(readKeyFile(file)).rejects.toThrow(`${file} is not valid JSON`);
  });
});

describe('npm run keys (runKeysCli)', () => {
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runKeysCli(argv, file, {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      now: () => t0,
    });
    return { code, out, err };
  }

  it('create prints the key once; list never shows it; revoke by name; the file holds no plaintext', async () => {
    const created = await cli('create', '--name', 'ci');
    expect(created.code).toBe(0);
    const [announce, key] = created.out;
    const id = /Created API key (key_[0-9a-f]{12}) \(name "ci"\)/.exec(announce!)![1]!;
    expect(key).toMatch(/^esk_/);

    const listed = await cli('list');
    expect(listed).toEqual({
      code: 0,
      out: ['id\tname\tcreated\trevoked\treviewer', `${id}\tci\t2026-11-21T09:00:00.000Z\t-\tno`],
      err: [],
    });

    expect(await cli('revoke', 'ci')).toEqual({
      code: 0,
      out: [`Revoked API key ${id} (name "ci")`],
      err: [],
    });
    expect((await cli('list')).out[1]).toBe(
      `${id}\tci\t2026-11-21T09:00:00.000Z\t2026-11-21T09:00:00.000Z\tno`,
    );
    const reviewer = await cli('create', '--name', 'data-team', '--reviewer');
    expect(reviewer.out[0]).toMatch(
      /^Created API key key_[0-9a-f]{12} \(name "data-team", may read held snapshots\)\./,
    );
    expect((await cli('list')).out[2]).toMatch(/\tdata-team\t2026-11-21T09:00:00.000Z\t-\tyes$/);

    const stored = await readFile(file, 'utf8');
    expect(stored).not.toContain(key!);
    expect(stored).toContain(hashApiKey(key!));
  });

  it('keeps both keys when two commands create at the same time', async () => {
    const results = await Promise.all(
      ['alpha', 'beta', 'gamma'].map((name) => cli('create', '--name', name)),
    );
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    expect((await readKeyFile(file)).keys.map((k) => k.name).sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect(await readdir(dir)).toEqual(['keys.json']);
  });

  it('reports a user mistake on stderr with exit 1, and bad usage with exit 2', async () => {
    expect(await cli('revoke', 'ghost')).toEqual({
      code: 1,
      out: [],
      err: ['error: no key with id or active name "ghost"'],
    });
    for (const argv of [[], ['create'], ['revoke'], ['rotate'], ['list', '--bogus']]) {
      const res = await cli(...argv);
      expect(res.code).toBe(2);
      expect(res.err.join('\n')).toContain('usage: npm run keys -- create --name <name>');
    }
  });
});

describe('withKeyFileLock', () => {
  it('waits for the holder, takes over a stale lock, and gives up on a live one after waitMs', async () => {
    const order: string[] = [];
    await Promise.all([
      withKeyFileLock(file, async () => {
        order.push('first in');
        await new Promise((r) => setTimeout(r, 50));
        order.push('first out');
      }),
      new Promise((r) => setTimeout(r, 10)).then(() =>
        withKeyFileLock(file, async () => order.push('second')),
      ),
    ]);
    expect(order).toEqual(['first in', 'first out', 'second']);

    const exited = spawnSync(process.execPath, ['-e', '']).pid!;
    await writeFile(
      `${file}.lock`,
      JSON.stringify({ pid: exited, host: hostname(), purpose: 'key command' }),
    );
    expect(await withKeyFileLock(file, async () => 'taken over')).toBe('taken over');

    const live = { pid: process.ppid, host: hostname(), purpose: 'key command', startedAt: 'now' };
    await writeFile(`${file}.lock`, JSON.stringify(live));
    await expect(withKeyFileLock(file, async () => 'never', { waitMs: 100 })).rejects.toThrow(
      `${file}.lock is held by key command (pid ${process.ppid} on ${hostname()}) since now`,
    );
  });
});

describe('ensureKey (first start)', () => {
  it('creates one local key when none is configured, storing only its hash; the operator’s, a reviewer', async () => {
    const created = await ensureKey(file, [], t0);
    expect(created).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^esk_/) });
    const stored = await readKeyFile(file);
    expect(stored.keys).toEqual([
      {
        id: created!.id,
        name: 'local',
        hash: hashApiKey(created!.key),
        createdAt: t0.toISOString(),
        revokedAt: null,
        reviewer: true,
      },
    ]);
    expect(await ensureKey(file, [], t1)).toBeNull();
  });

  it('creates nothing when API_KEYS is set', async () => {
    expect(await ensureKey(file, ['a-static-key-of-16+chars'], t0)).toBeNull();
    expect(await readKeyFile(file)).toEqual(empty);
  });

  it('creates a new one when every stored key is revoked', async () => {
    const first = await ensureKey(file, [], t0);
    await writeKeyFile(file, revokeKey(await readKeyFile(file), first!.id, t1).file);
    const second = await ensureKey(file, [], t1);
    expect(second!.id).not.toBe(first!.id);
  });
});

describe('KeyStore', () => {
  let store: KeyStore | undefined;
  afterEach(() => store?.close());

  it('accepts API_KEYS under an id derived from the hash', async () => {
    const key = 'static-key-0123456789';
    store = await KeyStore.open({ file, staticKeys: [key], pollMs: 60_000, logger: silentLogger() });
    expect(store.authenticate(key)).toEqual({
      id: staticKeyId(hashApiKey(key)),
      name: 'API_KEYS[0]',
      reviewer: false,
    });
    expect(store.authenticate('static-key-0123456788')).toBeNull();
  });

  it('notices keys created and revoked by another process without a restart', async () => {
    store = await KeyStore.open({ file, staticKeys: [], pollMs: 50, logger: silentLogger() });
    const { file: content, key, stored } = addKey(empty, 'late', t0);
    await writeKeyFile(file, content);
    await expect
      .poll(() => store!.authenticate(key), { timeout: 5000 })
      .toEqual({ id: stored.id, name: 'late', reviewer: false });
    await writeKeyFile(file, revokeKey(content, 'late', t1).file);
    await expect.poll(() => store!.authenticate(key), { timeout: 5000 }).toBeNull();
  });

  it('keeps the keys it has when the file turns malformed', async () => {
    const { file: content, key } = addKey(empty, 'kept', t0);
    await writeKeyFile(file, content);
    store = await KeyStore.open({ file, staticKeys: [], pollMs: 60_000, logger: silentLogger() });
    await writeFile(file, 'not json');
    await store.reload();
    expect(store.authenticate(key)?.name).toBe('kept');
  });
});
