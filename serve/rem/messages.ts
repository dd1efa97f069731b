import type { Language } from '../../schemas/incentives/enums.ts';
import { precomputeProgressText, type PrecomputeProgress } from '../http/not-ready.ts';

const FUEL_NAMES = {
  en: { electricity: 'electric', natural_gas: 'natural gas', fuel_oil: 'fuel oil', propane: 'propane' },
  es: { electricity: 'eléctrica', natural_gas: 'gas natural', fuel_oil: 'gasóleo', propane: 'propano' },
} as const;

type FuelName = keyof (typeof FUEL_NAMES)['en'];

/** Every message the REM routes answer with (beyond the generic validation ones), in English and Spanish. */
export const remMessages = {
  en: {
    waterHeaterFuelRequired: 'water_heater_fuel: is required for the water-heater upgrade',
    addressNotFound: 'address: could not be located; give a street address with its ZIP code',
    zipWithoutCounty: (zip: string) => `address: no county is known for ZIP code ${zip}`,
    outsideContiguousUs: (state: string) =>
      `address: is in ${state}; REM estimates cover the contiguous United States and DC only`,
    buildingNotSupported: (heating: FuelName, waterHeater: FuelName | null, county: string) =>
      `building_not_supported: ${FUEL_NAMES.en[heating]} heating` +
      (waterHeater === null ? '' : ` with a ${FUEL_NAMES.en[waterHeater]} water heater`) +
      ` is too rare in ${county} to estimate` +
      (waterHeater === null ? '' : '; omit water_heater_fuel to let the model draw it'),
    upgradeNotApplicable: (county: string) =>
      `upgrade: applies to none of the sample homes for ${county} with these fuels`,
    countyUnknown: (county: string) =>
      `building_profile.county: no county of the contiguous US has code ${county}`,
    countyFormat: 'building_profile.county: must be a county GISJOIN (e.g. G4400070) or 5-digit FIPS code',
    tooFewMatches: (county: string) =>
      `building_not_supported: too few of ${county}'s sample homes match these building features to ` +
      'estimate; give fewer features',
    remUnavailable: 'REM estimates are not in the data being served yet; retry later',
    remPrecomputing: (progress: PrecomputeProgress) =>
      `REM estimates are being precomputed (${precomputeProgressText.en(progress)}); retry later`,
    geocoderUnavailable: 'The address service is unavailable; retry shortly.',
    modelBusy: 'Too many estimates are being computed for homes not precomputed; retry in a second',
  },
  es: {
    waterHeaterFuelRequired: 'water_heater_fuel: es obligatorio para la mejora del calentador de agua',
    addressNotFound: 'address: no se pudo ubicar; indique una dirección con su código postal',
    zipWithoutCounty: (zip: string) => `address: no se conoce ningún condado para el código postal ${zip}`,
    outsideContiguousUs: (state: string) =>
      `address: está en ${state}; las estimaciones REM cubren solo los Estados Unidos contiguos y DC`,
    buildingNotSupported: (heating: FuelName, waterHeater: FuelName | null, county: string) =>
      `building_not_supported: la calefacción de ${FUEL_NAMES.es[heating]}` +
      (waterHeater === null ? '' : ` con calentador de agua de ${FUEL_NAMES.es[waterHeater]}`) +
      ` es demasiado rara en ${county} para estimarla` +
      (waterHeater === null ? '' : '; omita water_heater_fuel para que el modelo lo elija'),
    upgradeNotApplicable: (county: string) =>
      `upgrade: no se aplica a ninguna vivienda de muestra de ${county} con estos combustibles`,
    countyUnknown: (county: string) =>
      `building_profile.county: ningún condado de los Estados Unidos contiguos tiene el código ${county}`,
    countyFormat:
      'building_profile.county: debe ser el GISJOIN de un condado (p. ej. G4400070) o su código FIPS de 5 dígitos',
    tooFewMatches: (county: string) =>
      `building_not_supported: muy pocas viviendas de muestra de ${county} tienen estas características ` +
      'para estimarlas; indique menos características',
    remUnavailable:
      'Las estimaciones REM aún no están en los datos publicados; vuelva a intentarlo más tarde',
    remPrecomputing: (progress: PrecomputeProgress) =>
      `Las estimaciones REM se están precalculando (${precomputeProgressText.es(progress)}); vuelva a intentarlo más tarde`,
    geocoderUnavailable: 'El servicio de direcciones no está disponible; vuelva a intentarlo en breve.',
    modelBusy:
      'Se están calculando demasiadas estimaciones de viviendas no precalculadas; vuelva a intentarlo en un segundo',
  },
} satisfies Record<Language, unknown>;

export type RemMessages = (typeof remMessages)['en'];
