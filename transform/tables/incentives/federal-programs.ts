import type { ProgramRecord } from '../../../schemas/incentives/records.ts';

/**
 * The federal (IRA) programs that data/ira_incentives.json refers to by id. Upstream defines them in its
 * code rather than in its data, so they are declared here. English names are the IRS's (irs.gov, "Credits and
 * deductions for individuals", 2025). Spanish names are exactly those the upstream service
 * (api.rewiringamerica.org, `language=es`) returns for the same data, as recorded in its conformance answers
 * (ra-data/conformance/snapshots/v1-es-*.json); they drop the "Federal" the English names carry. URLs are
 * unused: an incentive's own `url` is what the API returns as `program_url`.
 */
export const FEDERAL_PROGRAMS: readonly Omit<ProgramRecord, 'state'>[] = [
  {
    id: 'alternativeFuelVehicleRefuelingPropertyCredit',
    name: {
      en: 'Federal Alternative Fuel Vehicle Refueling Property Credit (30C)',
      es: 'Crédito a la propiedad para el repostaje de vehículos de combustible alternativo (30C)',
    },
    url: { en: 'https://www.irs.gov/credits-deductions/alternative-fuel-vehicle-refueling-property-credit' },
  },
  {
    id: 'cleanVehicleCredit',
    name: { en: 'Federal Clean Vehicle Credit (30D)', es: 'Crédito para vehículos limpios (30D)' },
    url: {
      en: 'https://www.irs.gov/credits-deductions/credits-for-new-clean-vehicles-purchased-in-2023-or-after',
    },
  },
  {
    id: 'creditForPreviouslyOwnedCleanVehicles',
    name: {
      en: 'Federal Credit for Previously-Owned Clean Vehicles (25E)',
      es: 'Crédito para vehículos limpios de propiedad anterior (25E)',
    },
    url: { en: 'https://www.irs.gov/credits-deductions/used-clean-vehicle-credit' },
  },
  {
    id: 'energyEfficientHomeImprovementCredit',
    name: {
      en: 'Federal Energy Efficient Home Improvement Credit (25C)',
      es: 'Crédito para la mejora de la eficiencia energética en el hogar (25C)',
    },
    url: { en: 'https://www.irs.gov/credits-deductions/energy-efficient-home-improvement-credit' },
  },
  {
    id: 'residentialCleanEnergyCredit',
    name: {
      en: 'Federal Residential Clean Energy Credit (25D)',
      es: 'Crédito de energía limpia residencial (25D)',
    },
    url: { en: 'https://www.irs.gov/credits-deductions/residential-clean-energy-credit' },
  },
].map((program, position) => ({ ...program, position, authority: null, authority_type: 'federal' as const }));
