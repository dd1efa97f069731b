import type { Language } from './incentives/enums.ts';
import type { Fuel, Upgrade } from './rem.ts';

/**
 * What people read for the API's upgrade and fuel identifiers, in the API's two languages (the county
 * map's menus and legend). Keyed by the identifiers, so a new upgrade or fuel does not typecheck until it
 * is named. What each upgrade changes is model/upgrades/apply-upgrade.ts's.
 */

export type Names = Record<Language, string>;

export const UPGRADE_NAMES: Record<Upgrade, Names> = {
  baseline: { en: 'No upgrade (the home as it is)', es: 'Sin mejora (la vivienda tal como está)' },
  weatherization__insulation_air_duct_sealing: {
    en: 'Weatherization: insulation, air sealing and duct sealing',
    es: 'Climatización: aislamiento y sellado de aire y de conductos',
  },
  hvac__heat_pump_seer15_hspf9: {
    en: 'Heat pump, standard efficiency (SEER 15, HSPF 9)',
    es: 'Bomba de calor, eficiencia estándar (SEER 15, HSPF 9)',
  },
  hvac__heat_pump_seer18_hspf10: {
    en: 'Heat pump, high efficiency (SEER 18, HSPF 10)',
    es: 'Bomba de calor, alta eficiencia (SEER 18, HSPF 10)',
  },
  hvac__heat_pump_seer24_hspf13: {
    en: 'Heat pump, highest efficiency (SEER 24, HSPF 13)',
    es: 'Bomba de calor, máxima eficiencia (SEER 24, HSPF 13)',
  },
  'water_heater__heat_pump_uef3.35': {
    en: 'Heat pump water heater (UEF 3.35)',
    es: 'Calentador de agua con bomba de calor (UEF 3.35)',
  },
  combination__hvac_seer18_hspf10__weatherization: {
    en: 'Heat pump (SEER 18, HSPF 10) and weatherization',
    es: 'Bomba de calor (SEER 18, HSPF 10) y climatización',
  },
  combination__all_electric__hvac_seer24_hspf13__weatherization: {
    en: 'All-electric home: heat pump (SEER 24, HSPF 13), heat pump water heater, heat pump dryer and induction range, with weatherization',
    es: 'Vivienda totalmente eléctrica: bomba de calor (SEER 24, HSPF 13), calentador de agua con bomba de calor, secadora con bomba de calor y cocina de inducción, con climatización',
  },
};

export const FUEL_NAMES: Record<Fuel, Names> = {
  electricity: { en: 'Electricity', es: 'Electricidad' },
  natural_gas: { en: 'Natural gas', es: 'Gas natural' },
  fuel_oil: { en: 'Fuel oil', es: 'Gasóleo de calefacción' },
  propane: { en: 'Propane', es: 'Propano' },
};
