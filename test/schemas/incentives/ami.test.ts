import { describe, expect, it } from 'vitest';
import { adjustAmi, amiBySize, amiFlags } from '../../../schemas/incentives/ami.ts';

describe('adjustAmi', () => {
  it('matches the reference values for a 4-person limit of 60,400', () => {
    expect(adjustAmi(60400, 1)).toBe(42300);
    expect(adjustAmi(60400, 3)).toBe(54350);
    expect(adjustAmi(60400, 4)).toBe(60400);
    expect(adjustAmi(60400, 5)).toBe(65250);
    expect(adjustAmi(60400, 8)).toBe(79750);
  });

  it('rounds to the nearest $50 with halves going up', () => {
    expect(adjustAmi(80925, 4)).toBe(80950);
    expect(adjustAmi(80924, 4)).toBe(80900);
  });

  it('lists sizes 1 to 8 in order', () => {
    expect(amiBySize(100000)).toEqual([70000, 80000, 90000, 100000, 108000, 116000, 124000, 132000]);
  });
});

describe('amiFlags', () => {
  it('uses strict comparisons: income equal to the limit is not under it', () => {
    expect(amiFlags(64750, 64750, 121400)).toEqual({
      is_under_80_ami: false,
      is_under_150_ami: true,
      is_over_150_ami: false,
    });
    expect(amiFlags(64749, 64750, 121400)).toEqual({
      is_under_80_ami: true,
      is_under_150_ami: true,
      is_over_150_ami: false,
    });
    expect(amiFlags(121400, 64750, 121400)).toEqual({
      is_under_80_ami: false,
      is_under_150_ami: false,
      is_over_150_ami: true,
    });
  });
});
