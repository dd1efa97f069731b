import { describe, expect, it } from 'vitest';
import { STATES_AND_TERRITORIES } from '../../../../schemas/incentives/enums.ts';
import { LAUNCHED_STATES } from '../../../../schemas/incentives/launched-states.ts';
import { stateIncentivesIncluded, stateStatuses } from '../../../../serve/incentives/eligibility/states.ts';

describe('stateStatuses', () => {
  const withData = new Set(['RI', 'FL', 'SD']);

  it('lists every state and territory in order: launched or none, as the reference does', () => {
    const statuses = stateStatuses(withData, { betaStatus: false });
    expect(Object.keys(statuses)).toEqual([...STATES_AND_TERRITORIES]);
    expect(statuses.RI).toEqual({ status: 'launched' });
    expect(statuses.FL).toEqual({ status: 'none' });
    expect(statuses.WV).toEqual({ status: 'none' });
  });

  it('reports a launched state without data in the snapshot as none', () => {
    const statuses = stateStatuses(withData, { betaStatus: true });
    expect(LAUNCHED_STATES.has('CA')).toBe(true);
    expect(statuses.CA).toEqual({ status: 'none' });
    expect(Object.entries(statuses).filter(([, s]) => s.status === 'launched')).toEqual([
      ['RI', { status: 'launched' }],
    ]);
  });

  it('reports every launched state as launched when each has data (the national data)', () => {
    const statuses = stateStatuses(new Set([...LAUNCHED_STATES, 'FL']), { betaStatus: false });
    expect(Object.values(statuses).filter((s) => s.status === 'launched')).toHaveLength(LAUNCHED_STATES.size);
    expect(statuses.FL).toEqual({ status: 'none' });
  });

  it('reports beta for states with data that are not launched, when asked', () => {
    const statuses = stateStatuses(withData, { betaStatus: true });
    expect(statuses.FL).toEqual({ status: 'beta' });
    expect(statuses.SD).toEqual({ status: 'beta' });
    expect(statuses.WV).toEqual({ status: 'none' });
    expect(statuses.RI).toEqual({ status: 'launched' });
  });
});

describe('stateIncentivesIncluded', () => {
  it('includes launched states, and states with data only for beta requests', () => {
    expect(stateIncentivesIncluded('RI', false, true)).toBe(true);
    expect(stateIncentivesIncluded('SD', false, true)).toBe(false);
    expect(stateIncentivesIncluded('SD', true, true)).toBe(true);
    expect(stateIncentivesIncluded('WV', true, false)).toBe(false);
  });
});
