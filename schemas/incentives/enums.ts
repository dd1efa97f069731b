import { z } from 'zod';

/** Upgrade items an incentive can cover, in the order the public API documents them. */
export const ITEMS = [
  'air_sealing',
  'air_to_water_heat_pump',
  'attic_or_roof_insulation',
  'basement_insulation',
  'battery_storage_installation',
  'central_air_conditioner',
  'cool_roof',
  'crawlspace_insulation',
  'door_replacement',
  'duct_replacement',
  'duct_sealing',
  'ducted_heat_pump',
  'ductless_heat_pump',
  'ebike',
  'efficiency_rebates',
  'electric_outdoor_equipment',
  'electric_panel',
  'electric_service_upgrades',
  'electric_stove',
  'electric_thermal_storage_and_slab',
  'electric_vehicle_charger',
  'electric_wiring',
  'energy_audit',
  'evaporative_cooler',
  'floor_insulation',
  'geothermal_heating_installation',
  'heat_pump_clothes_dryer',
  'heat_pump_water_heater',
  'integrated_heat_pump_controls',
  'new_electric_vehicle',
  'new_plugin_hybrid_vehicle',
  'non_heat_pump_clothes_dryer',
  'non_heat_pump_water_heater',
  'other',
  'other_heat_pump',
  'other_insulation',
  'other_weatherization',
  'rooftop_solar_installation',
  'smart_thermostat',
  'solar_screen_films',
  'solar_water_heater',
  'used_electric_vehicle',
  'used_plugin_hybrid_vehicle',
  'wall_insulation',
  'whole_house_fan',
  'window_replacement',
] as const;
export const itemSchema = z.enum(ITEMS);
export type Item = z.infer<typeof itemSchema>;

export const AUTHORITY_TYPES = [
  'federal',
  'state',
  'utility',
  'gas_utility',
  'city',
  'county',
  'other',
] as const;
export const authorityTypeSchema = z.enum(AUTHORITY_TYPES);
export type AuthorityType = z.infer<typeof authorityTypeSchema>;

export const PAYMENT_METHODS = [
  'rebate',
  'pos_rebate',
  'tax_credit',
  'account_credit',
  'assistance_program',
  'performance_rebate',
  'unknown',
] as const;
export const paymentMethodSchema = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const AMOUNT_TYPES = ['dollar_amount', 'percent', 'dollars_per_unit'] as const;
export const amountTypeSchema = z.enum(AMOUNT_TYPES);
export type AmountType = z.infer<typeof amountTypeSchema>;

export const AMOUNT_UNITS = [
  'ton',
  'kilowatt',
  'watt',
  'btuh10k',
  'cfm50',
  'square_foot',
  'kilowatt_hour',
] as const;
export const amountUnitSchema = z.enum(AMOUNT_UNITS);

export const OWNER_STATUSES = ['homeowner', 'renter'] as const;
export const ownerStatusSchema = z.enum(OWNER_STATUSES);
export type OwnerStatus = z.infer<typeof ownerStatusSchema>;

export const FILING_STATUSES = [
  'hoh',
  'joint',
  'married_filing_separately',
  'single',
  'qualifying_widower_with_dependent_child',
] as const;
export const filingStatusSchema = z.enum(FILING_STATUSES);
export type FilingStatus = z.infer<typeof filingStatusSchema>;

export const LANGUAGES = ['en', 'es'] as const;
export const languageSchema = z.enum(LANGUAGES);
export type Language = z.infer<typeof languageSchema>;

/** The 50 states and DC, then the territories, in the order the states endpoint lists them. */
export const STATES_AND_TERRITORIES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY',
  'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND',
  'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC',
  'PR', 'GU', 'MP', 'VI', 'AS',
] as const; // prettier-ignore
export const stateCodeSchema = z.enum(STATES_AND_TERRITORIES);
export type StateCode = z.infer<typeof stateCodeSchema>;

export const TERRITORIES: readonly string[] = ['PR', 'GU', 'MP', 'VI', 'AS'];

export const GEOGRAPHY_TYPES = ['state', 'county', 'custom', 'electric_territory', 'gas_territory'] as const;
export const geographyTypeSchema = z.enum(GEOGRAPHY_TYPES);
export type GeographyType = z.infer<typeof geographyTypeSchema>;
