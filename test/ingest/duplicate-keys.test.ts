import { describe, expect, it } from 'vitest';
import { checkKeys, describeDuplicateKeys } from '../../ingest/duplicate-keys.ts';
import type { SourceRecord } from '../../ingest/source.ts';

const FILE = 'data/MA/incentives.json';
const incentive = (id: string, position: number, amount = 500): SourceRecord => ({
  schema: 'incentives.incentive',
  key: `MA/${id}`,
  payload: { id, state: 'MA', position, amount: { type: 'dollar_amount', number: amount } },
  file: FILE,
});

describe('checkKeys', () => {
  it('passes records whose keys are their own within each schema', () => {
    const records = [
      incentive('mass-save-hp', 0),
      incentive('mass-save-hpwh', 1),
      { schema: 'incentives.program', key: 'MA/mass-save-hp', payload: { id: 'mass-save-hp' }, file: FILE },
    ];
    expect(checkKeys(records)).toEqual({ records, collapsed: [], conflicting: [] });
  });

  it('names the keys that an export repeated, with the fields in which their records differ', () => {
    // Massachusetts' incentives exported twice: the repeats sit after the originals, so their positions differ.
    const once = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id, i) => incentive(id, i));
    const twice = [
      ...once,
      ...once.map((r, i) => ({ ...r, payload: { ...(r.payload as object), position: 7 + i } })),
    ];
    const check = checkKeys(twice);
    expect(check.conflicting).toEqual([
      {
        schema: 'incentives.incentive',
        file: FILE,
        keys: 7,
        examples: ['MA/a', 'MA/b', 'MA/c', 'MA/d', 'MA/e'],
        differingFields: ['position'],
      },
    ]);
    expect(describeDuplicateKeys(check.conflicting[0]!, '/srv/incentives')).toBe(
      `7 keys of incentives.incentive in ${FILE}: MA/a, MA/b, MA/c, MA/d, MA/e and 2 more`,
    );
  });

  it('collapses a record repeated identically, keeping the first, and reports it', () => {
    const zip = { schema: 'incentives.zip', key: '02116', payload: { zip: '02116', state: 'MA' } };
    const check = checkKeys([
      zip,
      { ...zip },
      { schema: 'incentives.zip', key: '02903', payload: { zip: '02903' } },
    ]);
    expect(check.records).toEqual([
      zip,
      { schema: 'incentives.zip', key: '02903', payload: { zip: '02903' } },
    ]);
    expect(check.collapsed).toEqual([{ schema: 'incentives.zip', keys: 1, examples: ['02116'] }]);
    expect(check.conflicting).toEqual([]);
    expect(describeDuplicateKeys(check.collapsed[0]!, '/srv/zips.csv')).toBe(
      '1 key of incentives.zip in /srv/zips.csv: 02116',
    );
  });

  it('counts a key once however often it repeats, and tells conflicting from identical repeats', () => {
    const check = checkKeys([
      incentive('a', 0),
      incentive('a', 0),
      incentive('a', 0, 750),
      incentive('a', 0, 900),
    ]);
    expect(check.collapsed).toEqual([
      { schema: 'incentives.incentive', file: FILE, keys: 1, examples: ['MA/a'] },
    ]);
    expect(check.conflicting).toEqual([
      {
        schema: 'incentives.incentive',
        file: FILE,
        keys: 1,
        examples: ['MA/a'],
        differingFields: ['amount'],
      },
    ]);
  });
});
