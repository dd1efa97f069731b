import { describe, expect, it } from 'vitest';
import { homeSchema, UPGRADES, type Home, type Upgrade } from '../../../schemas/rem.ts';
import { HEAT_PUMPS } from '../../../model/equipment/heat-pumps.ts';
import { applyUpgrade } from '../../../model/upgrades/apply-upgrade.ts';
import { electricSlabHome, gasHeatedHome } from '../homes.ts';

function upgraded(home: Home, upgrade: Upgrade): Home {
  const result = applyUpgrade(home, upgrade);
  if (!result.applicable) throw new Error(`not applicable: ${result.reason}`);
  return homeSchema.parse(result.home);
}

const WEATHERIZATION = 'weatherization__insulation_air_duct_sealing';

describe('baseline', () => {
  it('applies to every home and changes nothing', () => {
    const home = gasHeatedHome();
    expect(applyUpgrade(home, 'baseline')).toEqual({ applicable: true, home });
  });
});

describe('weatherization__insulation_air_duct_sealing', () => {
  it.each([
    ['1A', 13, 30],
    ['1A', 19, 19],
    ['2A', 30, 49],
    ['3C', 19, 49],
    ['3A', 38, 38],
    ['4A', 38, 60],
    ['5A', 19, 60],
    ['7', 49, 49],
  ] as const)('in zone %s takes a vented attic at R-%i to R-%i', (climateZone, before, after) => {
    const home = gasHeatedHome({ climateZone, ceilingInsulationR: before, wallInsulationR: 0 });
    expect(upgraded(home, WEATHERIZATION).ceilingInsulationR).toBe(after);
  });

  it('leaves a finished roof alone', () => {
    const home = gasHeatedHome({ atticType: 'finished_roof', ceilingInsulationR: 7, wallInsulationR: 0 });
    expect(upgraded(home, WEATHERIZATION).ceilingInsulationR).toBe(7);
  });

  it('air-seals homes at 15 ACH50 or more by 30 % and leaves tighter ones alone', () => {
    expect(upgraded(gasHeatedHome({ ach50: 20 }), WEATHERIZATION).ach50).toBeCloseTo(14, 9);
    expect(upgraded(gasHeatedHome({ ach50: 15 }), WEATHERIZATION).ach50).toBeCloseTo(10.5, 9);
    expect(upgraded(gasHeatedHome({ ach50: 14.9 }), WEATHERIZATION).ach50).toBe(14.9);
  });

  it('seals ducts to 10 % leakage and insulates them to R-8, never making them worse', () => {
    const sealed = upgraded(gasHeatedHome({ ductLeakage: 0.25, ductInsulationR: 4 }), WEATHERIZATION);
    expect(sealed).toMatchObject({ ductLeakage: 0.1, ductInsulationR: 8 });
    const tight = upgraded(
      gasHeatedHome({ ductLeakage: 0.06, ductInsulationR: 8, ceilingInsulationR: 7 }),
      WEATHERIZATION,
    );
    expect(tight).toMatchObject({ ductLeakage: 0.06, ductInsulationR: 8 });
  });

  it('fills uninsulated walls to R-13 and leaves insulated ones', () => {
    expect(upgraded(gasHeatedHome({ wallInsulationR: 0 }), WEATHERIZATION).wallInsulationR).toBe(13);
    expect(upgraded(gasHeatedHome({ wallInsulationR: 7 }), WEATHERIZATION).wallInsulationR).toBe(7);
  });

  it('excludes a home that already meets every measure', () => {
    const home = gasHeatedHome({
      ceilingInsulationR: 49,
      ach50: 7,
      ductLeakage: 0.08,
      ductInsulationR: 8,
      wallInsulationR: 13,
    });
    expect(applyUpgrade(home, WEATHERIZATION)).toEqual({
      applicable: false,
      reason: 'the attic, air tightness, ducts and walls already meet the weatherization levels',
    });
  });
});

describe('heat pump upgrades', () => {
  it.each([
    ['hvac__heat_pump_seer15_hspf9', HEAT_PUMPS.seer15Hspf9, 'acca', 13.125],
    ['hvac__heat_pump_seer18_hspf10', HEAT_PUMPS.seer18Hspf10, 'hers', 15.75],
    ['hvac__heat_pump_seer24_hspf13', HEAT_PUMPS.seer24Hspf13, 'acca', 21],
  ] as const)('%s installs the ducted model in a ducted home, sized %s', (upgrade, tier, sizing, eer) => {
    const home = upgraded(gasHeatedHome(), upgrade);
    expect(home).toMatchObject({
      heatingFuel: 'electricity',
      heatingType: 'heat_pump',
      heatingAfue: 1,
      coolingType: 'heat_pump',
      coolingEer: eer,
      cooledFraction: 1,
    });
    expect(home.heatPump).toEqual({ ...tier.ducted, sizing });
  });

  it('installs ductless models in homes without ducts, with their own ratings', () => {
    const home = electricSlabHome();
    expect(upgraded(home, 'hvac__heat_pump_seer15_hspf9').heatPump).toMatchObject({ ducted: false, hspf: 9 });
    expect(upgraded(home, 'hvac__heat_pump_seer18_hspf10').heatPump).toMatchObject({
      model: 'ASHP, SEER 18, 10.5 HSPF',
      hspf: 10.5,
    });
    const mshp = upgraded(home, 'hvac__heat_pump_seer24_hspf13');
    expect(mshp.heatPump).toMatchObject({ model: 'MSHP, SEER 29.3, 14 HSPF', seer: 29.3, hspf: 14 });
    expect(mshp.coolingEer).toBeCloseTo(25.638, 3);
    expect(mshp.cooledFraction).toBe(1);
  });

  it('drops thermostat setbacks only with the HERS-sized SEER 18 package', () => {
    const home = gasHeatedHome({ heatingSetbackF: 8, coolingSetupF: 4 });
    expect(upgraded(home, 'hvac__heat_pump_seer18_hspf10')).toMatchObject({
      heatingSetbackF: 0,
      coolingSetupF: 0,
    });
    expect(upgraded(home, 'hvac__heat_pump_seer15_hspf9')).toMatchObject({
      heatingSetbackF: 8,
      coolingSetupF: 4,
    });
  });

  it('changes nothing else about the home', () => {
    const home = gasHeatedHome();
    const after = upgraded(home, 'hvac__heat_pump_seer15_hspf9');
    expect(after).toMatchObject({
      waterHeaterFuel: 'natural_gas',
      rangeFuel: 'natural_gas',
      ach50: home.ach50,
      ceilingInsulationR: home.ceilingInsulationR,
    });
  });

  it('excludes a home that already has that heat pump', () => {
    const once = upgraded(gasHeatedHome(), 'hvac__heat_pump_seer18_hspf10');
    expect(applyUpgrade(once, 'hvac__heat_pump_seer18_hspf10')).toEqual({
      applicable: false,
      reason: 'the home already has this heat pump',
    });
    expect(applyUpgrade(once, 'hvac__heat_pump_seer24_hspf13').applicable).toBe(true);
  });
});

describe('water_heater__heat_pump_uef3.35', () => {
  it.each([
    [2, 50, 3.45],
    [3, 50, 3.45],
    [4, 66, 3.35],
    [5, 80, 3.45],
  ] as const)('gives a %i-bedroom home a %i gal heat pump water heater at UEF %f', (bedrooms, gal, uef) => {
    expect(upgraded(gasHeatedHome({ bedrooms }), 'water_heater__heat_pump_uef3.35')).toMatchObject({
      waterHeaterFuel: 'electricity',
      waterHeaterType: 'heat_pump',
      waterHeaterTankGal: gal,
      waterHeaterUef: uef,
    });
  });

  it('excludes homes with an electric tankless heater', () => {
    const home = electricSlabHome({
      waterHeaterType: 'tankless',
      waterHeaterUef: 0.98,
      waterHeaterTankGal: 0,
    });
    expect(applyUpgrade(home, 'water_heater__heat_pump_uef3.35')).toEqual({
      applicable: false,
      reason: 'the home has an electric tankless water heater or already has this heat pump water heater',
    });
  });

  it('replaces gas tankless heaters and older heat pump water heaters', () => {
    const gasTankless = gasHeatedHome({
      waterHeaterType: 'tankless',
      waterHeaterUef: 0.9,
      waterHeaterTankGal: 0,
    });
    expect(upgraded(gasTankless, 'water_heater__heat_pump_uef3.35').waterHeaterType).toBe('heat_pump');
    const oldHpwh = electricSlabHome({ waterHeaterType: 'heat_pump', waterHeaterUef: 2.3 });
    expect(upgraded(oldHpwh, 'water_heater__heat_pump_uef3.35').waterHeaterUef).toBe(3.45);
  });
});

describe('combination packages', () => {
  it('combines the SEER 18 heat pump with weatherization', () => {
    const home = upgraded(gasHeatedHome({ ach50: 18 }), 'combination__hvac_seer18_hspf10__weatherization');
    expect(home.heatPump?.model).toBe('ASHP, SEER 18, 10 HSPF');
    expect(home.heatPump?.sizing).toBe('hers');
    expect(home.ach50).toBeCloseTo(12.6, 9);
    expect(home.ceilingInsulationR).toBe(60);
    expect(home.waterHeaterFuel).toBe('natural_gas');
  });

  it('makes the whole home electric: SEER 24 heat pump, weatherization, HPWH, heat pump dryer, induction', () => {
    const home = upgraded(gasHeatedHome(), 'combination__all_electric__hvac_seer24_hspf13__weatherization');
    expect(home).toMatchObject({
      heatingFuel: 'electricity',
      waterHeaterFuel: 'electricity',
      waterHeaterType: 'heat_pump',
      dryerFuel: 'electricity',
      dryerHeatPump: true,
      rangeFuel: 'electricity',
      rangeInduction: true,
      ceilingInsulationR: 60,
      ductLeakage: 0.1,
    });
    expect(home.heatPump?.model).toBe('MSHP, SEER 24, 13 HSPF');
  });

  it('still applies to a home with an electric tankless heater, leaving that heater', () => {
    const home = electricSlabHome({
      waterHeaterType: 'tankless',
      waterHeaterUef: 0.98,
      waterHeaterTankGal: 0,
    });
    const after = upgraded(home, 'combination__all_electric__hvac_seer24_hspf13__weatherization');
    expect(after.waterHeaterType).toBe('tankless');
    expect(after.heatingType).toBe('heat_pump');
  });

  it('excludes a home the package would not change', () => {
    const done = upgraded(gasHeatedHome(), 'combination__all_electric__hvac_seer24_hspf13__weatherization');
    expect(
      applyUpgrade(done, 'combination__all_electric__hvac_seer24_hspf13__weatherization').applicable,
    ).toBe(false);
  });
});

describe('every upgrade', () => {
  it('returns valid homes and leaves its input untouched', () => {
    for (const home of [gasHeatedHome(), electricSlabHome()]) {
      const copy = structuredClone(home);
      for (const upgrade of UPGRADES) {
        const result = applyUpgrade(home, upgrade);
        if (result.applicable) expect(() => homeSchema.parse(result.home), upgrade).not.toThrow();
      }
      expect(home).toEqual(copy);
    }
  });
});
