import type { Home } from '../../schemas/rem.ts';

/**
 * Steady-state heat-loss coefficients of a home's envelope, from its geometry and insulation levels.
 * Geometry is a rectangular box: the footprint is floor area / stories with a 1.5 : 1 aspect ratio and
 * 8 ft stories (assumptions in the spirit of the Building America House Simulation Protocols, BA-HSP,
 * NREL/TP-5500-60988). Assembly R-values use the parallel-path method and material values of ASHRAE
 * Handbook—Fundamentals (2021) Ch. 26–27.
 */

export interface Envelope {
  /** Conduction to outdoor air plus infiltration, Btu/h·°F. */
  uaAirBtuHF: number;
  /** Conduction to the ground (basements), Btu/h·°F, driven by the ground temperature. */
  uaGroundBtuHF: number;
  /** The infiltration share of uaAirBtuHF. */
  uaInfiltrationBtuHF: number;
  windowAreaFt2: number;
  volumeFt3: number;
  /** Natural (annual average) air changes per hour. */
  naturalAch: number;
}

const STORY_HEIGHT_FT = 8;
const ASPECT_RATIO = 1.5;
/** Share of the perimeter an attached unit shares with neighbours (average of end and middle units). */
const ATTACHED_SHARED_PERIMETER = 0.3;

/** Softwood framing, R-1.25 per inch (ASHRAE Fundamentals Ch. 26, Table 1). */
const FRAMING_R_PER_INCH = 1.25;
/** Share of a wood-stud wall's area that is framing (BA-HSP: 25 %, approx.). */
const WALL_FRAMING_FRACTION = 0.25;
/**
 * Layers in series with the wall cavity: inside and outside air films (0.68 + 0.17), ½" gypsum (0.45),
 * sheathing (0.62) and siding (0.6) — ASHRAE Fundamentals Ch. 26 tables.
 */
const WALL_OTHER_R = 2.5;
/** An empty stud cavity still has a ~R-1 air space (ASHRAE Fundamentals Ch. 26, Table 3, approx.). */
const EMPTY_CAVITY_R = 1;
/** Ceiling air films, gypsum and attic air space, in series with the attic insulation (approx.). */
const CEILING_OTHER_R = 2.3;
/** Floor films, subfloor and finish in series with floor insulation (approx.). */
const FLOOR_OTHER_R = 4;
/** A vented crawlspace sits roughly halfway between indoor and outdoor temperature. */
const CRAWLSPACE_BUFFER = 0.5;
/** Slab-on-grade perimeter F-factor, uninsulated: 0.73 Btu/h·ft·°F (ASHRAE 90.1 Appendix A, Table A6.3). */
const SLAB_F_UNINSULATED = 0.73;
/** Fit through 90.1's F-factors for edge insulation (R-10 → ≈ 0.54). */
const SLAB_F_PER_R = 0.035;
/** Below-grade basement wall depth and the soil's added resistance (ASHRAE Fundamentals Ch. 18, approx.). */
const BASEMENT_WALL_DEPTH_FT = 7;
const BASEMENT_SOIL_R = 10;
/** Basement floors lose little: ~0.03 Btu/h·ft²·°F to deep ground (ASHRAE Fundamentals Ch. 18, approx.). */
const BASEMENT_FLOOR_U = 0.03;
/** Volumetric heat capacity of air: ρ·cp = 0.018 Btu/ft³·°F (ASHRAE Fundamentals Ch. 16). */
const AIR_HEAT_CAPACITY = 0.018;
/**
 * LBL N-factor turning ACH50 into annual-average natural ACH (Sherman 1987, "Estimation of infiltration from
 * leakage and climate indicators"): ≈ 20 for a one-story house with normal shielding, times a height
 * correction of 1.0 / 0.8 / 0.7 for 1 / 2 / 3 stories.
 */
const N_FACTOR_ONE_STORY = 20;
const N_FACTOR_HEIGHT = [1, 0.8, 0.7] as const;

/** An envelope to write into; NaN (a double) so that V8 stores its fields as doubles from the start. */
export const unsetEnvelope = (): Envelope => ({
  uaAirBtuHF: NaN,
  uaGroundBtuHF: NaN,
  uaInfiltrationBtuHF: NaN,
  windowAreaFt2: NaN,
  volumeFt3: NaN,
  naturalAch: NaN,
});

export function wallAssemblyU(cavityR: number): number {
  const studDepthIn = cavityR > 15 ? 5.5 : 3.5;
  const framingPath = studDepthIn * FRAMING_R_PER_INCH + WALL_OTHER_R;
  const cavityPath = Math.max(cavityR, EMPTY_CAVITY_R) + WALL_OTHER_R;
  return WALL_FRAMING_FRACTION / framingPath + (1 - WALL_FRAMING_FRACTION) / cavityPath;
}

/**
 * The home's envelope, written into `into` (every field) when given: the feature encoder reuses one object
 * for every row of a batch, so that a row's envelope allocates neither an object nor boxed numbers.
 */
export function envelopeOf(home: Home, into: Envelope = unsetEnvelope()): Envelope {
  const footprint = home.floorAreaFt2 / home.stories;
  const width = Math.sqrt(footprint / ASPECT_RATIO);
  const perimeter = 2 * (width + ASPECT_RATIO * width);
  const exposedPerimeter =
    home.buildingType === 'single_family_attached' ? perimeter * (1 - ATTACHED_SHARED_PERIMETER) : perimeter;
  const grossWall = exposedPerimeter * STORY_HEIGHT_FT * home.stories;
  const windowAreaFt2 = grossWall * home.windowWallRatio;
  const volumeFt3 = home.floorAreaFt2 * STORY_HEIGHT_FT;

  const walls = (grossWall - windowAreaFt2) * wallAssemblyU(home.wallInsulationR);
  const windows = windowAreaFt2 * home.windowU;
  const ceiling = footprint / (home.ceilingInsulationR + CEILING_OTHER_R);

  let foundationToAir = 0;
  let foundationToGround = 0;
  const floorU = 1 / (home.foundationInsulationR + FLOOR_OTHER_R);
  switch (home.foundation) {
    case 'slab':
      foundationToAir =
        (exposedPerimeter * SLAB_F_UNINSULATED) / (1 + SLAB_F_PER_R * home.foundationInsulationR);
      break;
    case 'crawlspace':
      foundationToAir = footprint * floorU * CRAWLSPACE_BUFFER;
      break;
    case 'pier_and_beam':
      foundationToAir = footprint * floorU;
      break;
    case 'unheated_basement':
      foundationToGround = footprint * floorU;
      break;
    case 'heated_basement':
      foundationToGround =
        (exposedPerimeter * BASEMENT_WALL_DEPTH_FT) / (home.foundationInsulationR + BASEMENT_SOIL_R) +
        footprint * BASEMENT_FLOOR_U;
      break;
  }

  const naturalAch = home.ach50 / (N_FACTOR_ONE_STORY * N_FACTOR_HEIGHT[home.stories - 1]!);
  const uaInfiltrationBtuHF = AIR_HEAT_CAPACITY * volumeFt3 * naturalAch;
  into.uaAirBtuHF = walls + windows + ceiling + foundationToAir + uaInfiltrationBtuHF;
  into.uaGroundBtuHF = foundationToGround;
  into.uaInfiltrationBtuHF = uaInfiltrationBtuHF;
  into.windowAreaFt2 = windowAreaFt2;
  into.volumeFt3 = volumeFt3;
  into.naturalAch = naturalAch;
  return into;
}
