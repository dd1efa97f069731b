import { HEALTH_RECORDS } from '../../schemas/health-data.ts';
import { csvNumber, csvRecordParser } from './csv-rows.ts';

/**
 * Fossil-fuelled power plants (ingest/default-data/health/fossil-power-plants-gppd-1.3.0.csv, or any CSV with
 * its columns): one `health.power-plant` record per plant, with its net generation of `year` (the column
 * `generation_gwh_<year>`, whose year the header names). An empty generation cell is "not reported".
 */
const YEAR = 2019;

export const powerPlantsParser = csvRecordParser({
  kind: 'fossil-power-plants',
  record: HEALTH_RECORDS.powerPlant,
  label: 'fossil power plants (CSV)',
  columns: [
    'plant_id',
    'name',
    'latitude',
    'longitude',
    'primary_fuel',
    'capacity_mw',
    `generation_gwh_${YEAR}`,
  ],
  key: (row) => row.plant_id,
  payload: (row) => {
    const generation = row[`generation_gwh_${YEAR}`];
    return {
      plant_id: row.plant_id,
      name: row.name,
      latitude: csvNumber(row.latitude),
      longitude: csvNumber(row.longitude),
      primary_fuel: row.primary_fuel,
      capacity_mw: csvNumber(row.capacity_mw),
      generation_gwh: generation === '' ? null : csvNumber(generation),
      year: YEAR,
    };
  },
});
