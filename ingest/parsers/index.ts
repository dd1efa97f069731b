import type { SourceParser } from '../source.ts';
import { countyGeographyParser } from './county-geography.ts';
import { countyHeatingFuelParser } from './county-heating-fuel.ts';
import { eiaSedsResidentialPricesParser } from './eia-seds-residential-prices.ts';
import { geonamesPostalCodesParser } from './geonames-postal-codes.ts';
import { countyGridRegionsParser, gridGenerationParser, lrmerProfilesParser } from './grid-sources.ts';
import { healthDamageFactorsParser } from './health-damage-factors.ts';
import { remCountyProfilesParser } from './rem-county-profiles.ts';
import { powerPlantsParser } from './power-plants.ts';
import { remEmissionFactorsParser } from './rem-emission-factors.ts';
import { rewiringAmericaOpenDataParser } from './rewiring-america-open-data.ts';

/** Every source layout the pipeline understands, by `kind` (the `kind` of a sources.json entry). */
export const parsers: SourceParser[] = [
  rewiringAmericaOpenDataParser,
  geonamesPostalCodesParser,
  remCountyProfilesParser,
  eiaSedsResidentialPricesParser,
  remEmissionFactorsParser,
  healthDamageFactorsParser,
  countyHeatingFuelParser,
  countyGeographyParser,
  powerPlantsParser,
  countyGridRegionsParser,
  lrmerProfilesParser,
  gridGenerationParser,
];
