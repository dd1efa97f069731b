import { describe, expect, it } from 'vitest';
import { climateById } from '../../../model/climate/climate.ts';
import { interpolate47175 } from '../../../model/equipment/heat-pumps.ts';
import { clothesDrying, cooking, otherElectricKwh } from '../../../model/physics/appliances.ts';
import { internalGainsBtuH, latentMultiplier } from '../../../model/physics/gains.ts';
import { heatPumpCapacityBtuH } from '../../../model/physics/space-conditioning.ts';
import { hotWaterGallonsPerDay, waterHeating } from '../../../model/physics/water-heating.ts';
import { applyUpgrade } from '../../../model/upgrades/apply-upgrade.ts';
import { gasHeatedHome } from '../homes.ts';

describe('interpolate47175', () => {
  const cop = [4, 3, 2.5] as const;

  it('passes through the 47 / 17 / 5 °F points and is linear between them', () => {
    expect(interpolate47175(cop, 47, 1)).toBe(4);
    expect(interpolate47175(cop, 17, 1)).toBe(3);
    expect(interpolate47175(cop, 5, 1)).toBe(2.5);
    expect(interpolate47175(cop, 32, 1)).toBeCloseTo(3.5, 12);
    expect(interpolate47175(cop, 11, 1)).toBeCloseTo(2.75, 12);
  });

  it('holds the 47 °F value above 47 °F and extends the 17→5 slope below 5 °F, down to the floor', () => {
    expect(interpolate47175(cop, 60, 1)).toBe(4);
    expect(interpolate47175(cop, -7, 1)).toBeCloseTo(2, 12);
    expect(interpolate47175(cop, -100, 1)).toBe(1);
  });
});

describe('heat pump sizing', () => {
  const heatPumpHome = (sizing: 'acca' | 'hers') => {
    const upgrade = sizing === 'hers' ? 'hvac__heat_pump_seer18_hspf10' : 'hvac__heat_pump_seer15_hspf9';
    const result = applyUpgrade(gasHeatedHome(), upgrade);
    if (!result.applicable) throw new Error(result.reason);
    return result.home;
  };

  it('sizes HERS to the larger design load', () => {
    expect(heatPumpCapacityBtuH(heatPumpHome('hers'), { heatingBtuH: 50_000, coolingBtuH: 30_000 })).toBe(
      50_000,
    );
  });

  it('sizes ACCA to the cooling load, oversized for heating by at most 15,000 Btu/h', () => {
    const home = heatPumpHome('acca');
    expect(heatPumpCapacityBtuH(home, { heatingBtuH: 50_000, coolingBtuH: 30_000 })).toBe(45_000);
    expect(heatPumpCapacityBtuH(home, { heatingBtuH: 36_000, coolingBtuH: 30_000 })).toBe(36_000);
    expect(heatPumpCapacityBtuH(home, { heatingBtuH: 20_000, coolingBtuH: 30_000 })).toBe(30_000);
  });

  it('never sizes below one ton, and a home without a heat pump has none', () => {
    expect(heatPumpCapacityBtuH(heatPumpHome('hers'), { heatingBtuH: 5_000, coolingBtuH: 4_000 })).toBe(
      12_000,
    );
    expect(heatPumpCapacityBtuH(gasHeatedHome(), { heatingBtuH: 50_000, coolingBtuH: 30_000 })).toBe(0);
  });
});

describe('gains', () => {
  it('follows the ANSI/RESNET 301 internal-gains formula', () => {
    // (17,900 + 23.8 × 2,000 + 4,104 × 3) / 24
    expect(internalGainsBtuH(gasHeatedHome())).toBeCloseTo(3_242.17, 2);
  });

  it('adds latent load in humid zones (zone 7 counts as humid), less in marine and dry ones', () => {
    expect(latentMultiplier('2A')).toBe(1.25);
    expect(latentMultiplier('7')).toBe(1.25);
    expect(latentMultiplier('2B')).toBe(1.03);
    expect(latentMultiplier('4C')).toBe(1.1);
  });
});

describe('water heating', () => {
  it('uses 30 + 10 gal/day per bedroom, with bedrooms from occupants (BA-HSP)', () => {
    expect(hotWaterGallonsPerDay(0.87 + 0.59 * 3)).toBeCloseTo(60, 9);
    expect(hotWaterGallonsPerDay(1)).toBeCloseTo(32.2, 1);
  });

  it('heats mains water to 125 °F and divides by the UEF', () => {
    const chicago = climateById('chicago-il');
    const home = gasHeatedHome({ occupants: 3, waterHeaterUef: 0.6 });
    const result = waterHeating(home, chicago);
    const delivered = hotWaterGallonsPerDay(3) * 365 * 8.34 * (125 - chicago.mainsTempF);
    expect(result.deliveredBtu).toBeCloseTo(delivered, 6);
    expect(result.fuelKwh).toBeCloseTo(delivered / 0.6 / 3412.14, 6);
    expect(result.spaceHeatDrawBtuH).toBe(0);
  });

  it('lets a heat pump water heater draw half its extracted heat from the house', () => {
    const chicago = climateById('chicago-il');
    const home = gasHeatedHome({
      waterHeaterFuel: 'electricity',
      waterHeaterType: 'heat_pump',
      waterHeaterUef: 3.45,
    });
    const result = waterHeating(home, chicago);
    expect(result.spaceHeatDrawBtuH).toBeCloseTo((result.deliveredBtu * (1 - 1 / 3.45) * 0.5) / 8760, 6);
  });
});

describe('appliances', () => {
  it('dries 164 + 46.5 × N_br loads of 8.45 lb at the CEF of the dryer', () => {
    const home = gasHeatedHome({ occupants: 3 });
    const bedrooms = (hotWaterGallonsPerDay(3) - 30) / 10;
    const pounds = (164 + 46.5 * bedrooms) * 8.45;
    expect(clothesDrying(home)).toEqual({ fuelKwh: pounds / 3.73, electricKwh: 0 });
    const gas = clothesDrying({ ...home, dryerFuel: 'natural_gas' });
    expect(gas.fuelKwh).toBeCloseTo((pounds / 3.3) * 0.91, 9);
    expect(gas.electricKwh).toBeCloseTo((pounds / 3.3) * 0.09, 9);
    expect(clothesDrying({ ...home, dryerFuel: 'none' })).toEqual({ fuelKwh: 0, electricKwh: 0 });
  });

  it('cooks with 331 + 39 × N_br kWh or 22.6 + 2.7 × N_br therms (ANSI/RESNET 301)', () => {
    expect(cooking(gasHeatedHome({ rangeFuel: 'electricity', bedrooms: 3 }))).toEqual({
      fuelKwh: 448,
      electricKwh: 0,
    });
    const gas = cooking(gasHeatedHome({ rangeFuel: 'natural_gas', bedrooms: 3 }));
    expect(gas.fuelKwh).toBeCloseTo(30.7 * 29.307, 1);
    expect(gas.electricKwh).toBeCloseTo(30.7, 9);
  });

  it('puts everything else at 4,260 kWh for a 2,000 ft² three-bedroom home', () => {
    // 650 + 0.45 × 2,000 + 0.91 × 2,000 + 413 + 69 × 3 + 150 + 40 × 3
    expect(otherElectricKwh(gasHeatedHome())).toBeCloseTo(4_260, 9);
  });
});
