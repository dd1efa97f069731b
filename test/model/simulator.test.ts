import { describe, expect, it } from 'vitest';
import { END_USES, FUELS, type Fuel, type Home } from '../../schemas/rem.ts';
import { climateById } from '../../model/climate/climate.ts';
import { HEAT_PUMPS } from '../../model/equipment/heat-pumps.ts';
import { envelopeOf, wallAssemblyU } from '../../model/physics/envelope.ts';
import { ductEfficiency } from '../../model/physics/distribution.ts';
import { sampleStateHomes } from '../../model/sampler/sample-homes.ts';
import { simulateHome } from '../../model/simulator.ts';
import { applyUpgrade } from '../../model/upgrades/apply-upgrade.ts';
import { kwhToMmbtu, kwhToTherms } from '../../model/units.ts';
import { electricSlabHome, gasHeatedHome } from './homes.ts';

const chicago = climateById('chicago-il');
const atlanta = climateById('atlanta-ga');

function upgraded(home: Home, upgrade: Parameters<typeof applyUpgrade>[1]): Home {
  const result = applyUpgrade(home, upgrade);
  if (!result.applicable) throw new Error(`not applicable: ${result.reason}`);
  return result.home;
}

describe('envelope', () => {
  it('gives wood-stud walls the parallel-path U-factors of ASHRAE Fundamentals', () => {
    expect(1 / wallAssemblyU(0)).toBeCloseTo(4.0, 1); // uninsulated 2×4
    expect(1 / wallAssemblyU(13)).toBeCloseTo(11.8, 1); // R-13 batts in 2×4
    expect(1 / wallAssemblyU(21)).toBeCloseTo(17.1, 1); // R-21 in 2×6
  });

  it('turns ACH50 into natural infiltration with the LBL N-factor', () => {
    const envelope = envelopeOf(gasHeatedHome()); // ACH50 12, two stories: N = 20 × 0.8
    expect(envelope.naturalAch).toBeCloseTo(0.75, 9);
    expect(envelope.uaInfiltrationBtuHF).toBeCloseTo(0.018 * 16_000 * 0.75, 9);
  });

  it('loses more through leaky attic ducts than through sealed basement ducts', () => {
    const attic = ductEfficiency(
      gasHeatedHome({ ductLocation: 'attic', ductLeakage: 0.25, ductInsulationR: 0 }),
    );
    const basement = ductEfficiency(
      gasHeatedHome({ ductLocation: 'basement', ductLeakage: 0.1, ductInsulationR: 8 }),
    );
    expect(attic).toBeCloseTo(0.55, 9);
    expect(basement).toBeCloseTo(0.965, 9);
    expect(ductEfficiency(gasHeatedHome({ ductLocation: 'conditioned_space' }))).toBe(1);
  });
});

describe('simulateHome', () => {
  it('is deterministic', () => {
    expect(simulateHome(gasHeatedHome(), chicago)).toEqual(simulateHome(gasHeatedHome(), chicago));
  });

  it('makes end uses and fuels add up to the same total', () => {
    const result = simulateHome(gasHeatedHome(), chicago);
    const byEndUse = END_USES.reduce((s, e) => s + FUELS.reduce((t, f) => t + result.byEndUse[e][f], 0), 0);
    const byFuel = FUELS.reduce((s, f) => s + result.byFuel[f], 0);
    expect(byEndUse).toBeCloseTo(result.totalKwh, 6);
    expect(byFuel).toBeCloseTo(result.totalKwh, 6);
    for (const fuel of FUELS) {
      expect(END_USES.reduce((s, e) => s + result.byEndUse[e][fuel], 0)).toBeCloseTo(result.byFuel[fuel], 6);
    }
  });

  it('puts each end use on the fuel of its appliance and nothing on fuels the home does not use', () => {
    const result = simulateHome(gasHeatedHome(), chicago);
    expect(result.byEndUse.heating.natural_gas).toBeGreaterThan(0);
    expect(result.byEndUse.heating.electricity).toBeGreaterThan(0); // the furnace blower
    expect(result.byEndUse.water_heating.natural_gas).toBeGreaterThan(0);
    expect(result.byEndUse.clothes_drying.electricity).toBeGreaterThan(0);
    expect(result.byEndUse.cooking.natural_gas).toBeGreaterThan(0);
    expect(result.byFuel.fuel_oil).toBe(0);
    expect(result.byFuel.propane).toBe(0);
    const allElectric = simulateHome(electricSlabHome(), atlanta);
    expect(allElectric.byFuel.natural_gas + allElectric.byFuel.fuel_oil + allElectric.byFuel.propane).toBe(0);
  });

  it('uses more heating energy for the same home in a colder climate', () => {
    const heating = (station: string): number => {
      const result = simulateHome(gasHeatedHome(), climateById(station));
      return result.byEndUse.heating.natural_gas;
    };
    expect(heating('houston-tx')).toBeLessThan(heating('atlanta-ga'));
    expect(heating('atlanta-ga')).toBeLessThan(heating('baltimore-md'));
    expect(heating('baltimore-md')).toBeLessThan(heating('chicago-il'));
    expect(heating('chicago-il')).toBeLessThan(heating('duluth-mn'));
  });

  it('uses more cooling energy in a hotter climate', () => {
    const cooling = (station: string): number =>
      simulateHome(gasHeatedHome(), climateById(station)).byEndUse.cooling.electricity;
    expect(cooling('seattle-wa')).toBeLessThan(cooling('chicago-il'));
    expect(cooling('chicago-il')).toBeLessThan(cooling('atlanta-ga'));
    expect(cooling('atlanta-ga')).toBeLessThan(cooling('phoenix-az'));
  });

  it('cuts the total site energy of a gas-heated home with every heat pump upgrade', () => {
    const before = simulateHome(gasHeatedHome(), chicago);
    for (const upgrade of [
      'hvac__heat_pump_seer15_hspf9',
      'hvac__heat_pump_seer18_hspf10',
      'hvac__heat_pump_seer24_hspf13',
    ] as const) {
      const after = simulateHome(upgraded(gasHeatedHome(), upgrade), chicago);
      expect(after.byFuel.natural_gas).toBeLessThan(before.byFuel.natural_gas);
      expect(after.byEndUse.heating.natural_gas).toBe(0);
      expect(after.byFuel.electricity).toBeGreaterThan(before.byFuel.electricity);
      expect(after.totalKwh).toBeLessThan(0.8 * before.totalKwh);
    }
  });

  it('gets more from a more efficient heat pump', () => {
    const electricity = (upgrade: Parameters<typeof applyUpgrade>[1]): number =>
      simulateHome(upgraded(gasHeatedHome(), upgrade), chicago).byEndUse.heating.electricity;
    expect(electricity('hvac__heat_pump_seer24_hspf13')).toBeLessThan(
      electricity('hvac__heat_pump_seer15_hspf9'),
    );
  });

  it('falls back on resistance heat in deep cold: a heat pump saves less, relatively, in Duluth', () => {
    const savingShare = (station: string): number => {
      const climate = climateById(station);
      const resistance = simulateHome(electricSlabHome({ climateZone: climate.climateZone }), climate);
      const heatPump = simulateHome(
        upgraded(electricSlabHome({ climateZone: climate.climateZone }), 'hvac__heat_pump_seer15_hspf9'),
        climate,
      );
      return 1 - heatPump.byEndUse.heating.electricity / resistance.byEndUse.heating.electricity;
    };
    expect(savingShare('atlanta-ga')).toBeGreaterThan(savingShare('duluth-mn'));
    expect(savingShare('duluth-mn')).toBeGreaterThan(0.3);
  });

  it('cuts the heating load with weatherization', () => {
    const leaky = gasHeatedHome({ ach50: 20, ceilingInsulationR: 7, wallInsulationR: 0 });
    const before = simulateHome(leaky, chicago);
    const after = simulateHome(upgraded(leaky, 'weatherization__insulation_air_duct_sealing'), chicago);
    expect(after.byEndUse.heating.natural_gas).toBeLessThan(0.75 * before.byEndUse.heating.natural_gas);
  });

  it('cuts water-heating energy with a heat pump water heater, taking some heat from the house', () => {
    const home = gasHeatedHome();
    const before = simulateHome(home, chicago);
    const after = simulateHome(upgraded(home, 'water_heater__heat_pump_uef3.35'), chicago);
    const waterBefore = FUELS.reduce((s, f: Fuel) => s + before.byEndUse.water_heating[f], 0);
    const waterAfter = FUELS.reduce((s, f: Fuel) => s + after.byEndUse.water_heating[f], 0);
    expect(waterAfter).toBeLessThan(0.25 * waterBefore);
    expect(after.byEndUse.water_heating.natural_gas).toBe(0);
    expect(after.byEndUse.heating.natural_gas).toBeGreaterThan(before.byEndUse.heating.natural_gas);
    expect(after.byEndUse.cooling.electricity).toBeLessThan(before.byEndUse.cooling.electricity);
  });

  it('gives a heat pump dryer and an induction range less energy than their resistance models', () => {
    const home = electricSlabHome();
    const base = simulateHome(home, atlanta);
    const efficient = simulateHome({ ...home, dryerHeatPump: true, rangeInduction: true }, atlanta);
    expect(efficient.byEndUse.clothes_drying.electricity).toBeCloseTo(
      (base.byEndUse.clothes_drying.electricity * 3.73) / 5.2,
      6,
    );
    expect(efficient.byEndUse.cooking.electricity).toBeCloseTo(0.9 * base.byEndUse.cooking.electricity, 6);
  });

  it('has heat pump curves that lose capacity and efficiency as it gets colder', () => {
    for (const tier of Object.values(HEAT_PUMPS)) {
      for (const rating of [tier.ducted, tier.ductless]) {
        expect(rating.cop[0]).toBeGreaterThan(rating.cop[1]);
        expect(rating.cop[1]).toBeGreaterThan(rating.cop[2]);
        expect(rating.capacityRetention[1]).toBeLessThan(rating.capacityRetention[0]);
        // The 17–47 °F midpoint COP is the rating's seasonal COP, HSPF / 3.412.
        expect((rating.cop[0] + rating.cop[1]) / 2).toBeCloseTo(rating.hspf / 3.412, 2);
      }
    }
  });
});

/** Mean annual consumption of n sampled homes of one state and heating fuel. */
function sampledMeans(state: string, heatingFuel: Fuel, n: number): Record<Fuel, number> & { total: number } {
  const result = sampleStateHomes(state, { heatingFuel }, n, 2020);
  if (!result.supported) throw new Error(result.message);
  const sums = { electricity: 0, natural_gas: 0, fuel_oil: 0, propane: 0, total: 0 };
  for (const { home, climate } of result.samples) {
    const r = simulateHome(home, climate);
    for (const fuel of FUELS) sums[fuel] += r.byFuel[fuel] / n;
    sums.total += r.totalKwh / n;
  }
  return sums;
}

describe('sampled homes against public consumption figures', () => {
  // EIA RECS 2020 (press release "EIA releases consumption and expenditures data from the Residential Energy
  // Consumption Survey", 29 March 2023): households used 76.8 MMBtu on average; Midwestern homes that
  // use natural gas used 76.1 MMBtu of it (EIA Today in Energy on RECS 2020), and Michigan's gas-heated
  // households 72.7 MMBtu for space heating alone (EIA RECS 2020 end-use release). EIA FAQ "How much
  // electricity does an American home use?": 10,715 kWh per residential customer in 2020, 14,407 kWh in
  // Louisiana. These figures include apartments, which use less than the single-family homes modelled here.

  it('puts gas-heated Illinois and Michigan homes at 600–1,100 therms of gas a year', () => {
    for (const state of ['IL', 'MI']) {
      const therms = kwhToTherms(sampledMeans(state, 'natural_gas', 300).natural_gas);
      expect(therms, state).toBeGreaterThan(600);
      expect(therms, state).toBeLessThan(1_100);
    }
  });

  it('puts the site energy of typical homes in the 50–130 MMBtu band around the US average', () => {
    for (const [state, fuel] of [
      ['GA', 'natural_gas'],
      ['CA', 'natural_gas'],
      ['TX', 'electricity'],
      ['NY', 'natural_gas'],
    ] as const) {
      const mmbtu = kwhToMmbtu(sampledMeans(state, fuel, 300).total);
      expect(mmbtu, state).toBeGreaterThan(50);
      expect(mmbtu, state).toBeLessThan(130);
    }
  });

  it('puts electricity of electrically heated Southern homes near the Louisiana average and gas homes below it', () => {
    const electric = sampledMeans('LA', 'electricity', 300).electricity;
    expect(electric).toBeGreaterThan(11_000);
    expect(electric).toBeLessThan(20_000);
    const gas = sampledMeans('GA', 'natural_gas', 300).electricity;
    expect(gas).toBeGreaterThan(6_000);
    expect(gas).toBeLessThan(electric);
  });
});
