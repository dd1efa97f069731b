import type { Candidate } from '../../../serve/incentives/eligibility/candidate.ts';

/** A state rebate candidate with realistic defaults; tests override what they are about. */
export function candidate(overrides: Partial<Candidate> & { id: string }): Candidate {
  return {
    programId: 'ri_hear',
    authorityType: 'state',
    authority: 'ri-office-of-energy-resources',
    authorityGeographies: new Set([40]),
    geoGroup: null,
    items: ['heat_pump_water_heater'],
    paymentMethods: ['rebate'],
    ownerStatus: ['homeowner'],
    amount: { type: 'dollar_amount', number: 1000 },
    lowIncome: null,
    lastDay: null,
    ...overrides,
  };
}
