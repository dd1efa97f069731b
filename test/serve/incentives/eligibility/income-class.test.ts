import { beforeAll, describe, expect, it } from 'vitest';
import type { LowIncomeThresholdRecord } from '../../../../schemas/incentives/records.ts';
import {
  incomeClass,
  incomeClassKey,
  isWithinLimit,
  type IncomeClass,
} from '../../../../serve/incentives/eligibility/income-class.ts';
import type { Household } from '../../../../serve/incentives/eligibility/low-income.ts';
import type { IncentivesData, Location } from '../../../../serve/incentives/incentives-data.ts';
import { fixtureData } from '../../../support/incentives/fixture-data.ts';

const source = { source_url: 'https://example.org/limits' };
/** One limit of every kind besides the fixture's own (IRA 30D by filing status, RI HEAR at 80% AMI). */
const extraLimits: LowIncomeThresholdRecord[] = [
  { ...source, id: 'ri-rie-hhsize', type: 'hhsize', thresholds: { '4': 62000 } },
  {
    ...source,
    id: 'ri-county-limits',
    type: 'county-hhsize',
    thresholds: { '44007': { '4': 70000 }, '44003': { '4': 65000 } },
  },
  // 133% of the 4-person guideline (32,150) is 42,759.5: the last qualifying dollar is 42,759.
  { ...source, id: 'ri-133-fpl', type: 'fpl-percentage', thresholds: { percentage: 133 } },
];

let data: IncentivesData;
let providence: Location;
let chepachet: Location;
beforeAll(async () => {
  const fixture = await fixtureData();
  const ri = fixture.states.get('RI')!;
  data = {
    ...fixture,
    thresholds: new Map([...fixture.thresholds, ...extraLimits.map((t) => [t.id, t] as const)]),
    states: new Map([
      ...fixture.states,
      [
        'RI',
        { ...ri, incomeLimitIds: [...ri.incomeLimitIds, ...extraLimits.map((t) => t.id), 'no-such-limit'] },
      ],
    ]),
  };
  providence = data.locations.get('02903')!; // 4 persons: 80% AMI 80,950, 150% AMI 151,800
  chepachet = data.locations.get('02814')!; // straddles counties 44007 and 44003
});

const family = (income: number): Household => ({ income, size: 4, taxFiling: 'joint' });
const at = (income: number, location = providence, household = family(income)): IncomeClass =>
  incomeClass(data, location, household);
const within = (income: number, limit: string, location = providence) =>
  isWithinLimit(at(income, location), limit);

describe('incomeClass', () => {
  it('sets the AMI flags with a strict "under": the limit itself is not under it', () => {
    expect(at(80949)).toMatchObject({
      is_under_80_ami: true,
      is_under_150_ami: true,
      is_over_150_ami: false,
    });
    expect(at(80950)).toMatchObject({ is_under_80_ami: false, is_under_150_ami: true });
    expect(at(151799)).toMatchObject({ is_under_150_ami: true, is_over_150_ami: false });
    expect(at(151800)).toMatchObject({ is_under_150_ami: false, is_over_150_ami: true });
  });

  it('uses the household size’s AMI limits', () => {
    const single = { income: 56650, size: 1, taxFiling: 'joint' as const };
    expect(at(56650, providence, single).is_under_80_ami).toBe(false);
    expect(at(56649, providence, { ...single, income: 56649 }).is_under_80_ami).toBe(true);
  });

  it('tests every income limit the federal and the state’s incentives name, each inclusive', () => {
    expect(at(60000).limits.ids).toEqual([
      'ira-30d-credit',
      'ri-hear-80ami',
      'ri-rie-hhsize',
      'ri-county-limits',
      'ri-133-fpl',
      'no-such-limit',
    ]);
    expect([within(80950, 'ri-hear-80ami'), within(80951, 'ri-hear-80ami')]).toEqual([true, false]);
    expect([within(300000, 'ira-30d-credit'), within(300001, 'ira-30d-credit')]).toEqual([true, false]);
    expect([within(62000, 'ri-rie-hhsize'), within(62001, 'ri-rie-hhsize')]).toEqual([true, false]);
    expect([within(42759, 'ri-133-fpl'), within(42760, 'ri-133-fpl')]).toEqual([true, false]);
  });

  it('takes the strictest county limit where the location straddles counties', () => {
    expect([within(70000, 'ri-county-limits'), within(70001, 'ri-county-limits')]).toEqual([true, false]);
    expect(within(65000, 'ri-county-limits', chepachet)).toBe(true);
    expect(within(65001, 'ri-county-limits', chepachet)).toBe(false);
  });

  it('never places a household within a limit the data does not define', () => {
    expect(within(0, 'no-such-limit')).toBe(false);
  });

  it('says no federal tax is owed up to the standard deduction, and never without a filing status', () => {
    expect(at(30000).owesNoFederalTax).toBe(true);
    expect(at(30001).owesNoFederalTax).toBe(false);
    expect(at(0, providence, { income: 0, size: 4 }).owesNoFederalTax).toBe(false);
  });

  it('says no state tax is owed only where a state model finds none (MA: up to the exemption)', () => {
    expect(at(0).owesNoStateTax).toBe(false); // RI has no model: unknown
    const inMassachusetts = { ...providence, state: 'MA' };
    expect(at(8800, inMassachusetts).owesNoStateTax).toBe(true);
    expect(at(8801, inMassachusetts).owesNoStateTax).toBe(false);
  });
});

describe('incomeClassKey', () => {
  const key = (income: number) => incomeClassKey(at(income));

  it('writes the AMI flags, the two tax tests, then each limit in order, one digit each', () => {
    expect(key(60000)).toBe('1100' + '111100');
    expect(key(0)).toBe('1110' + '111110');
  });

  it('is equal for incomes between the same thresholds and differs across each one', () => {
    expect(key(62001)).toBe(key(69999));
    expect(key(70001)).toBe(key(80949));
    // Each threshold's last income of one class and the first of the next (one dollar apart).
    for (const first of [30001, 42760, 62001, 70001, 80950, 151800, 300001]) {
      expect(key(first - 2), `${first - 2}, ${first - 1}`).toBe(key(first - 1));
      expect(key(first - 1), `${first - 1} | ${first}`).not.toBe(key(first));
    }
    // 80% AMI is under-80 up to 80,949 (strict) but within the 80% AMI limit up to 80,950 (inclusive).
    expect(key(80950)).toBe('0100' + '110000');
    expect(key(80951)).not.toBe(key(80950));
    expect(key(80951)).toBe(key(80952));
  });
});
