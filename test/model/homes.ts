import type { Home } from '../../schemas/rem.ts';

/**
 * A 1970s two-story, 2,000 ft² gas-heated Midwestern house with a heated basement, R-19 attic, R-11 walls,
 * double-clear windows, basement ducts and a gas water heater: a common single-family home.
 */
export function gasHeatedHome(changes: Partial<Home> = {}): Home {
  return {
    climateZone: '5A',
    buildingType: 'single_family_detached',
    floorAreaFt2: 2000,
    stories: 2,
    vintage: 1975,
    bedrooms: 3,
    occupants: 3,
    foundation: 'heated_basement',
    foundationInsulationR: 0,
    atticType: 'vented_attic',
    ceilingInsulationR: 19,
    wallInsulationR: 11,
    ach50: 12,
    windowWallRatio: 0.14,
    windowU: 0.49,
    windowShgc: 0.56,
    ductLocation: 'basement',
    ductLeakage: 0.2,
    ductInsulationR: 4,
    heatingFuel: 'natural_gas',
    heatingType: 'furnace',
    heatingAfue: 0.8,
    heatPump: null,
    heatingSetpointF: 70,
    heatingSetbackF: 4,
    coolingType: 'central_ac',
    coolingEer: 11.375,
    cooledFraction: 1,
    coolingSetpointF: 75,
    coolingSetupF: 0,
    waterHeaterFuel: 'natural_gas',
    waterHeaterType: 'storage',
    waterHeaterUef: 0.58,
    waterHeaterTankGal: 40,
    dryerFuel: 'electricity',
    dryerHeatPump: false,
    rangeFuel: 'natural_gas',
    rangeInduction: false,
    ...changes,
  };
}

/** A 1990s one-story slab house in the South with electric baseboard heat, room AC and an electric heater. */
export function electricSlabHome(changes: Partial<Home> = {}): Home {
  return gasHeatedHome({
    climateZone: '3A',
    floorAreaFt2: 1500,
    stories: 1,
    vintage: 1995,
    foundation: 'slab',
    foundationInsulationR: 0,
    ceilingInsulationR: 30,
    wallInsulationR: 13,
    ach50: 9,
    ductLocation: 'none',
    ductLeakage: 0,
    ductInsulationR: 0,
    heatingFuel: 'electricity',
    heatingType: 'electric_baseboard',
    heatingAfue: 1,
    coolingType: 'room_ac',
    coolingEer: 9.8,
    cooledFraction: 0.4,
    waterHeaterFuel: 'electricity',
    waterHeaterUef: 0.92,
    waterHeaterTankGal: 50,
    rangeFuel: 'electricity',
    ...changes,
  });
}
