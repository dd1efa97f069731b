import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../../serve/incentives/eligibility/candidate.ts';
import { applyMassSave } from '../../../../serve/incentives/eligibility/mass-save.ts';
import { candidate } from '../../../support/incentives/candidate-fixture.ts';

const massSave = candidate({
  id: 'MA-45',
  authorityType: 'other',
  authority: 'ma-massSave',
  items: ['heat_pump_water_heater', 'ducted_heat_pump'],
});
const municipal = (
  id: string,
  authority: string,
  items: Candidate['items'],
  authorityType: Candidate['authorityType'] = 'utility',
) => candidate({ id, authorityType, authority, items });

function run(candidates: Candidate[]) {
  const eligible = new Map(candidates.map((c) => [c.id, c]));
  applyMassSave(eligible);
  return {
    eligible: [...eligible.keys()],
    ineligible: candidates.map((c) => c.id).filter((id) => !eligible.has(id)),
  };
}

describe('applyMassSave', () => {
  it('drops a municipal utility’s incentive whose items Mass Save covers', () => {
    expect(
      run([massSave, municipal('MA-100', 'ma-concord-municipal-light-plant', ['heat_pump_water_heater'])]),
    ).toEqual({
      eligible: ['MA-45'],
      ineligible: ['MA-100'],
    });
  });

  it('keeps it when some of its items are not covered', () => {
    expect(
      run([
        massSave,
        municipal('MA-101', 'ma-concord-municipal-light-plant', ['heat_pump_water_heater', 'ebike']),
      ]).ineligible,
    ).toEqual([]);
  });

  it('keeps Mass Save member utilities and the exception municipal utilities', () => {
    const kept = [
      municipal('MA-102', 'ma-eversource', ['heat_pump_water_heater']),
      municipal('MA-103', 'ma-town-of-wellesley', ['heat_pump_water_heater']),
      municipal('MA-104', 'ma-national-grid-gas', ['ducted_heat_pump'], 'gas_utility'),
    ];
    expect(run([massSave, ...kept]).ineligible).toEqual([]);
  });

  it('drops other non-Mass-Save "other" authorities and non-member gas utilities', () => {
    const dropped = [
      municipal('MA-105', 'ma-some-other-program', ['ducted_heat_pump'], 'other'),
      municipal('MA-106', 'ma-holyoke-gas', ['ducted_heat_pump'], 'gas_utility'),
    ];
    expect(run([massSave, ...dropped]).ineligible).toEqual(['MA-105', 'MA-106']);
  });

  it('does nothing when no Mass Save incentive is eligible', () => {
    expect(
      run([municipal('MA-100', 'ma-concord-municipal-light-plant', ['heat_pump_water_heater'])]).ineligible,
    ).toEqual([]);
  });
});
