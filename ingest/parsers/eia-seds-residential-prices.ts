import { REM_RECORDS, type EnergyRate } from '../../schemas/rem-data.ts';
import type { Fuel } from '../../schemas/rem.ts';
import type { SourceParser, SourceReader, SourceRecord } from '../source.ts';
import { csvNumber, csvRows, readSourceFile, type CsvRow } from './csv-rows.ts';
import { MalformedSourceFileError } from './rewiring-america-open-data.ts';

/**
 * EIA State Energy Data System residential prices per state, converted to retail units (the
 * `eia-seds-residential-prices-2021-2023-converted.csv` layout: state, year, ¢/kWh, $/therm, $/Mcf,
 * $/gal heating oil, $/gal propane). The newest year in the file is used.
 *
 * SEDS prices are averages (revenue ÷ energy sold), so they include the fixed customer charges. They are
 * split into a fixed monthly charge and a volumetric rate so that a bill falls with use as a real one does:
 * - electricity and natural gas: a fixed $12.00/month, the default customer charge of ANSI/RESNET/ICC 301
 *   as used by NREL's OpenStudio-HPXML (`hpxml_defaults.rb`, utility bill scenarios). The volumetric rate is
 *   the average price less that charge spread over a typical customer's use: 12 × $12 ÷ 10,715 kWh (the US
 *   average residential customer's 2020 use, EIA FAQ "How much electricity does an American home use?")
 *   and 12 × $12 ÷ 710 therm (derived: EIA's 2022 residential deliveries of 4,964,165 MMcf ÷ the American
 *   Gas Association's 72.5 M residential gas customers = 68.5 Mcf, × 10.37 therm/Mcf at 1,037 Btu/ft³).
 *   A customer who uses the typical amount pays the SEDS average; one who uses less pays more per unit,
 *   as on a real tariff. Using national typical use for every state is approximate.
 * - fuel oil and propane: delivered fuels carry no customer charge, so the average is the volumetric rate
 *   and the fixed charge is 0.
 */

export const FIXED_MONTHLY_CHARGE = 12;
export const TYPICAL_ANNUAL_USE = { electricity: 10_715, natural_gas: 710 } as const;

const PUBLISHER = 'U.S. Energy Information Administration, State Energy Data System (2024 release)';
const LABEL = 'EIA SEDS residential prices (CSV)';
const COLUMNS = [
  'state',
  'year',
  'electricity_cents_per_kwh',
  'natural_gas_usd_per_therm',
  'heating_oil_usd_per_gal',
  'propane_usd_per_gal',
] as const;

const spreadFixed = (fuel: 'electricity' | 'natural_gas', unit: string): string =>
  `SEDS average price less a fixed $${FIXED_MONTHLY_CHARGE}.00/month (ANSI/RESNET/ICC 301 default customer ` +
  `charge, as in OpenStudio-HPXML) spread over a typical customer's ${TYPICAL_ANNUAL_USE[fuel].toLocaleString('en-US')} ${unit}/year`;

/** The rates of one state's row: every fuel, volumetric and fixed, with how they were derived. */
export function ratesOfRow(row: CsvRow): EnergyRate[] {
  const year = csvNumber(row.year);
  const common = { state: row.state!, year, publisher: PUBLISHER };
  const fixedShare = (fuel: keyof typeof TYPICAL_ANNUAL_USE) =>
    (12 * FIXED_MONTHLY_CHARGE) / TYPICAL_ANNUAL_USE[fuel];
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  const rate = (
    fuel: Fuel,
    volumetric: number,
    unit: EnergyRate['volumetric_unit'],
    fixed: number,
    method: string,
  ): EnergyRate => ({
    ...common,
    fuel,
    volumetric_rate: round(volumetric),
    volumetric_unit: unit,
    fixed_monthly: fixed,
    method,
  });
  return [
    rate(
      'electricity',
      csvNumber(row.electricity_cents_per_kwh) / 100 - fixedShare('electricity'),
      '$/kWh',
      FIXED_MONTHLY_CHARGE,
      spreadFixed('electricity', 'kWh'),
    ),
    rate(
      'natural_gas',
      csvNumber(row.natural_gas_usd_per_therm) - fixedShare('natural_gas'),
      '$/therm',
      FIXED_MONTHLY_CHARGE,
      spreadFixed('natural_gas', 'therm'),
    ),
    rate(
      'fuel_oil',
      csvNumber(row.heating_oil_usd_per_gal),
      '$/gallon',
      0,
      'SEDS average price of distillate fuel oil (0.13869 MMBtu/gal); delivered fuel, no fixed charge',
    ),
    rate(
      'propane',
      csvNumber(row.propane_usd_per_gal),
      '$/gallon',
      0,
      'SEDS average price of propane (0.091452 MMBtu/gal); delivered fuel, no fixed charge',
    ),
  ];
}

export const eiaSedsResidentialPricesParser: SourceParser = {
  kind: 'eia-seds-residential-prices',
  recordSchemas: [REM_RECORDS.energyRate],
  async parse(reader: SourceReader): Promise<SourceRecord[]> {
    const rows = csvRows(await readSourceFile(reader, LABEL), LABEL, COLUMNS);
    const years = rows.map((row) => csvNumber(row.year)).filter(Number.isFinite);
    if (years.length === 0) throw new MalformedSourceFileError(LABEL, 'no row has a year');
    const newest = Math.max(...years);
    return rows
      .filter((row) => csvNumber(row.year) === newest)
      .flatMap(ratesOfRow)
      .map((rate) => ({ schema: REM_RECORDS.energyRate, key: `${rate.state}/${rate.fuel}`, payload: rate }));
  },
};
