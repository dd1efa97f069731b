import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parsers } from '../../ingest/parsers/index.ts';
import { loadSources } from '../../ingest/sources-config.ts';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import type {
  CountyGridRegion,
  CountyHeatingFuel,
  CountyProfile,
  RemCountyRow,
} from '../../schemas/rem-data.ts';
import { heatingFuelsByCounty, remCountyRow } from '../../transform/tables/rem/rem-tables.ts';

/**
 * The payloads of one of the project's own default sources (ingest/sources.json), parsed by its registered
 * parser exactly as ingest would, for specs that need the shipped figures without running the pipeline.
 */
export async function defaultSourceRecords<T>(sourceName: string): Promise<T[]> {
  const declared = await loadSources(path.join(REPOSITORY_ROOT, 'ingest/sources.json'), {});
  const source = declared.find((s) => s.name === sourceName);
  if (!source) throw new Error(`no source ${sourceName} in ingest/sources.json`);
  const parser = parsers.find((p) => p.kind === source.kind);
  if (!parser) throw new Error(`no parser of kind ${source.kind}`);
  const file = source.location;
  const records = await parser.parse({
    location: file,
    read: async () => readFile(file),
    filesRead: () => [],
  });
  return records.map((r) => r.payload as T);
}

/** Every county of the default sources as rem_counties has it: heating-fuel shares and grid region joined. */
export async function defaultRemCounties(): Promise<RemCountyRow[]> {
  const profiles = await defaultSourceRecords<CountyProfile>('rem-counties');
  const fuels = heatingFuelsByCounty(
    profiles,
    await defaultSourceRecords<CountyHeatingFuel>('county-heating-fuel'),
  );
  const regions = new Map(
    (await defaultSourceRecords<CountyGridRegion>('county-grid-regions')).map((r) => [
      r.county_fips,
      r.grid_region,
    ]),
  );
  return profiles.map((county) =>
    remCountyRow(county, regions.get(county.county_fips)!, fuels.get(county.county_fips)!),
  );
}
