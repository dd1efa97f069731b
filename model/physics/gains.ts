import { zoneMoisture, type ClimateZone, type Home } from '../../schemas/rem.ts';

/**
 * Internal gains from people, lighting and appliances, ANSI/RESNET/ICC 301 reference home:
 * 17,900 + 23.8 × CFA + 4,104 × N_br Btu/day (approx., verify against the edition in use).
 */
export function internalGainsBtuH(home: Home): number {
  return (17_900 + 23.8 * home.floorAreaFt2 + 4_104 * home.bedrooms) / 24;
}

/**
 * Solar gain through windows per W/m² of global horizontal irradiance, Btu/h: window area × SHGC × the
 * average vertical-to-horizontal irradiance ratio over four orientations (≈ 0.4, approx.) × interior shading
 * (0.7, BA-HSP) × 0.317 Btu/h·ft² per W/m².
 */
export function solarGainPerWm2(home: Home, windowAreaFt2: number): number {
  return windowAreaFt2 * home.windowShgc * 0.4 * 0.7 * 0.317;
}

/**
 * Sensible-to-total load multiplier for cooling by moisture regime: humid (A) sensible heat ratio ≈ 0.8,
 * dry (B) ≈ 1, marine (C) ≈ 0.9 (ACCA Manual J typical values, approx.).
 */
export function latentMultiplier(climateZone: ClimateZone): number {
  const moisture = zoneMoisture(climateZone);
  if (moisture === 'A') return 1.25;
  if (moisture === 'C') return 1.1;
  return 1.03;
}
