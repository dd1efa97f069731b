import { describe, expect, it } from 'vitest';
import { keyAnnouncement } from '../../../serve/auth/key-announcement.ts';

describe('keyAnnouncement', () => {
  it('frames the new key between blank lines and rules, with how to use it', () => {
    const key = 'esk_3q2-Xy7dLmN0pQrStUvWxYz0123456789abcdefGh';
    expect(keyAnnouncement('key_0123456789ab', key).split('\n')).toEqual([
      '',
      '='.repeat(78),
      '  No API key was configured, so one was created (id key_0123456789ab).',
      '  It is shown only this once; keep it:',
      '',
      `    API key: ${key}`,
      '',
      '  Use it as "Authorization: Bearer <key>"; manage keys with "npm run keys".',
      '='.repeat(78),
      '',
    ]);
  });
});
