import type { ProgramRecord } from '../../../schemas/incentives/records.ts';

/**
 * The federal (IRA) programs that data/ira_incentives.json refers to by id. Upstream defines them in its
 * code rather than in its data, so they are declared here. Names are the IRS's (irs.gov, "Credits and
 * deductions for individuals", 2025); the Spanish names follow irs.gov/es. URLs are unused: an incentive's
 * own `url` is what the API returns as `program_url`.
 */
export const FEDERAL_PROGRAMS: readonly Omit<ProgramRecord, 'state'>[] = [
  {
    id: 'alternativeFuelVehicleRefuelingPropertyCredit',
    name: {
      en: 'Federal Alternative Fuel Vehicle Refueling Property Credit (30C)',
      es: 'Crédito Federal por Propiedad de Reabastecimiento de Vehículos de Combustible Alternativo (30C)',
    },
    url: { en: 'https://www.irs.gov/credits-deductions/alternative-fuel-vehicle-refueling-property-credit' },
  },
  {
    id: 'cleanVehicleCredit',
    name: { en: 'Federal Clean Vehicle Credit (30D)', es: 'Crédito Federal por Vehículo Limpio (30D)' },
    url: {
      en: 'https://www.irs.gov/credits-deductions/credits-for-new-clean-vehicles-purchased-in-2023-or-after',
    },
  },
  {
    id: 'creditForPreviouslyOwnedCleanVehicles',
    name: {
      en: 'Federal Credit for Previously-Owned Clean Vehicles (25E)',
      es: 'Crédito Federal por Vehículos Limpios Usados (25E)',
    },
    url: { en: 'https://www.irs.gov/credits-deductions/used-clean-vehicle-credit' },
  },
  {
    id: 'energyEfficientHomeImprovementCredit',
    name: {
      en: 'Federal Energy Efficient Home Improvement Credit (25C)',
      es: 'Crédito Federal por Mejoras de Eficiencia Energética en el Hogar (25C)',
    },
    url: { en: 'https://www.irs.gov/credits-deductions/energy-efficient-home-improvement-credit' },
  },
  {
    id: 'residentialCleanEnergyCredit',
    name: {
      en: 'Federal Residential Clean Energy Credit (25D)',
      es: 'Crédito Federal por Energía Limpia Residencial (25D)',
    },
    url: { en: 'https://www.irs.gov/credits-deductions/residential-clean-energy-credit' },
  },
].map((program, position) => ({ ...program, position, authority: null, authority_type: 'federal' as const }));
