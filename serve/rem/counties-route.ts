import {
  remCountiesQuerySchema,
  remCountiesResponseSchema,
  type RemCountiesQuery,
  type RemCountyChange,
} from '../../schemas/rem-api.ts';
import { clusterId, type ClusterKey } from '../../schemas/rem-data.ts';
import type { ApiModuleContext, ZodApp } from '../api-module.ts';
import { errorBodySchema } from '../errors.ts';
import { roundedTo } from '../http/json-bytes.ts';
import { sendJson } from '../http/send-json.ts';
import { totalDeltaMedians } from './cluster-statistics-store.ts';
import { remMessages } from './messages.ts';
import type { RemData, RemSnapshot } from './rem-data.ts';
import { readyRemData, requireWaterHeaterFuel } from './savings-request.ts';
import { STATISTIC_DECIMALS } from './savings-body.ts';

/**
 * The change of every county whose cluster for these fuels the snapshot precomputed, by FIPS: the medians
 * GET /rem/address answers for the county, read from the same slots. Clusters computed on demand are left
 * out: a map of the whole country would compute thousands of them in one request.
 */
export function remCountyChanges(
  data: RemData,
  query: Omit<RemCountiesQuery, 'language'>,
): RemCountyChange[] {
  const changes: RemCountyChange[] = [];
  for (const county of data.counties.values()) {
    const key: ClusterKey = {
      county_fips: county.county_fips,
      heating_fuel: query.heating_fuel,
      water_heater_fuel: query.water_heater_fuel ?? null,
    };
    const supported = data.clusterSupport.get(clusterId(key));
    if (supported === undefined) continue;
    const answer = supported ? data.statistics.answer(key, query.upgrade) : null;
    const counts = answer?.counts ?? { num_samples: 0, num_excluded_samples: 0 };
    const medians = answer !== null && counts.num_samples > 0 ? totalDeltaMedians(answer) : null;
    changes.push({
      county_fips: county.county_fips,
      county_name: county.name,
      state_abbreviation: county.state,
      supported,
      ...counts,
      median_bill_change: medians && roundedTo(medians.cost, STATISTIC_DECIMALS),
      median_emissions_change: medians && roundedTo(medians.emissions, STATISTIC_DECIMALS),
    });
  }
  return changes.sort((a, b) => a.county_fips.localeCompare(b.county_fips));
}

/** GET /api/v1/rem/counties: the precomputed counties' medians at once, for a map. */
export function registerCountiesRoute(app: ZodApp, ctx: ApiModuleContext<RemSnapshot>): void {
  app.get(
    '/api/v1/rem/counties',
    {
      schema: {
        summary: 'Median annual bill and emissions change of an upgrade in every precomputed county',
        description:
          'One row per county whose cluster for the fuels given the snapshot precomputed (REM_STATES): ' +
          'the median change of the annual bill and of annual emissions per home, all fuels together, ' +
          'and the sample sizes, the numbers GET /rem/address answers for an address in the county. ' +
          'What the /explore map draws.',
        operationId: 'getRemCounties',
        querystring: remCountiesQuerySchema,
        response: {
          200: remCountiesResponseSchema,
          503: errorBodySchema.describe('No snapshot, or the snapshot has no REM data yet'),
        },
      },
    },
    async (request, reply) => {
      const { language, ...query } = request.query;
      const text = remMessages[language];
      requireWaterHeaterFuel(query, text);
      const data = readyRemData(ctx.data(request), text, ctx.precompute());
      return sendJson(
        reply,
        JSON.stringify({
          upgrade: query.upgrade,
          heating_fuel: query.heating_fuel,
          water_heater_fuel: query.water_heater_fuel ?? null,
          units: { median_bill_change: '$/year', median_emissions_change: 'kgCO2e/year' },
          counties: remCountyChanges(data, query),
        }),
      );
    },
  );
}
