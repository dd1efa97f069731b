import { describe, expect, it } from 'vitest';
import { healthNationalSet, type HealthNationalFigures } from './health-national-figures.ts';
import { healthNoiseSet, type HealthNoiseFigures } from './health-noise-figures.ts';

const basis = (deaths: number, deathsPower: number) => ({
  deaths,
  deathsLow: deaths * 0.42,
  deathsOnsite: deaths - deathsPower,
  deathsPower,
  valueUsd: deaths * 11.5e6,
});

describe('the health figures', () => {
  it('list deaths avoided per upgrade, most first, on the long-run grid and then on today’s, within 120 characters', () => {
    // The part reads the upgrades alone.
    const figures = {
      upgrades: [
        { upgrade: 'hvac__heat_pump_seer15_hspf9', ...basis(997, -177), currentAverage: basis(798, -375) },
        {
          upgrade: 'combination__all_electric__hvac_seer24_hspf13__weatherization',
          ...basis(2004, 239),
          currentAverage: basis(2380, 616),
        },
      ],
    } as unknown as HealthNationalFigures;
    expect(healthNationalSet.parts.upgrades!(figures)).toBe(
      [
        '- **all-electric (heat pump 24/13, HPWH, dryer, range, weatherization)**: **2,004** deaths avoided a year (low 842),',
        '  1,765 from homes and 239 from power plants, worth $23.0 B (2024$); on today’s grid 2,380 (low 1,000), 616 from power',
        '  plants',
        '- **heat pump SEER 15 / HSPF 9**: 997 deaths avoided a year (low 419), 1,174 from homes and −177 from power plants,',
        '  worth $11.5 B (2024$); on today’s grid 798 (low 335), −375 from power plants',
      ].join('\n'),
    );
  });

  it('list what dropping the rises added per upgrade, most first', () => {
    const figures: HealthNoiseFigures = {
      modelVersion: 'rem-surrogate-1.2.0',
      homesPerCluster: 40,
      upgrades: [
        {
          upgrade: 'weatherization__insulation_air_duct_sealing',
          asPredicted: { central: 465, onsite: 300 },
          risesDropped: { central: 465.3, onsite: 300 },
        },
        {
          upgrade: 'water_heater__heat_pump_uef3.35',
          asPredicted: { central: 505, onsite: 400 },
          risesDropped: { central: 514.9, onsite: 410 },
        },
      ],
      untouchedGasShare: 0.011,
    };
    expect(healthNoiseSet.parts.table!(figures)).toBe(
      [
        '- heat-pump water heater: 505 deaths avoided a year with the rises counted, 515 with them dropped: 9.9 (+2.0 %) added by',
        '  dropping them',
        '- weatherization: 465 deaths avoided a year with the rises counted, 465 with them dropped: 0.3 (+0.1 %) added by',
        '  dropping them',
      ].join('\n'),
    );
  });
});
