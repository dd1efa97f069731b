import { describe, expect, it } from 'vitest';
import { remAddressQuerySchema } from '../../../schemas/rem-api.ts';
import type { RemCountyRow } from '../../../schemas/rem-data.ts';
import { addressAnswerKey } from '../../../serve/rem/address-answer-key.ts';
import type { RemData, RemSnapshot } from '../../../serve/rem/rem-data.ts';

/** The three lookups keying reads: Providence County RI and Anchorage AK (outside the contiguous US). */
const snapshot: RemSnapshot = {
  serverVersionJson: '{}',
  data: {
    zipStates: new Map([
      ['02903', 'RI'],
      ['02906', 'RI'],
      ['99501', 'AK'],
    ]),
    zipCounties: new Map([
      ['02903', '44007'],
      ['02906', '44007'],
      ['99501', '02020'],
    ]),
    counties: new Map([
      ['44007', { county_fips: '44007', name: 'Providence County', state: 'RI' } as RemCountyRow],
      ['02020', { county_fips: '02020', name: 'Anchorage', state: 'AK' } as RemCountyRow],
    ]),
  } as unknown as RemData,
};

const name = (query: Record<string, string>) =>
  addressAnswerKey(
    snapshot,
    remAddressQuerySchema.parse({
      upgrade: 'hvac__heat_pump_seer18_hspf10',
      heating_fuel: 'natural_gas',
      ...query,
    }),
  );

describe('addressAnswerKey', () => {
  it('keys an answer by county, fuels, upgrade and grid basis, whatever the street or language', () => {
    const providence = name({ address: '1 Main St, Providence, RI 02903' });
    expect(providence).toBe('44007 natural_gas - hvac__heat_pump_seer18_hspf10 long_run');
    expect(name({ address: '9 Hope St, Providence, Rhode Island 02906', language: 'es' })).toBe(providence);
    expect(name({ address: '1 Main St, Providence, RI 02903', water_heater_fuel: 'electricity' })).toBe(
      '44007 natural_gas electricity hvac__heat_pump_seer18_hspf10 long_run',
    );
    expect(name({ address: '1 Main St, Providence, RI 02903', grid_emissions: 'current_average' })).toBe(
      '44007 natural_gas - hvac__heat_pump_seer18_hspf10 current_average',
    );
  });

  it('keys no request the handler refuses, so the refusal keeps its own words', () => {
    // A ZIP of another state than the address names, no ZIP, a ZIP without a county, outside the contiguous US.
    expect(name({ address: '1 Main St, Lubbock, TX 02903' })).toBeUndefined();
    expect(name({ address: '1 Main St, Providence, RI' })).toBeUndefined();
    expect(name({ address: '1 Main St, Providence, RI 02999' })).toBeUndefined();
    expect(name({ address: '1 Main St, Anchorage, AK 99501' })).toBeUndefined();
    // The water-heater upgrade without the fuel it replaces.
    expect(
      name({ address: '1 Main St, Providence, RI 02903', upgrade: 'water_heater__heat_pump_uef3.35' }),
    ).toBeUndefined();
  });

  it('keys nothing while the snapshot has no REM data', () => {
    expect(
      addressAnswerKey(
        { data: null, serverVersionJson: '{}' },
        remAddressQuerySchema.parse({
          address: '1 Main St, Providence, RI 02903',
          upgrade: 'baseline',
          heating_fuel: 'natural_gas',
        }),
      ),
    ).toBeUndefined();
  });
});
