import type { z } from 'zod';
import { remProfileBodySchema, savingsSchema } from '../../schemas/rem-api.ts';
import type { RouteGroupContext, ZodApp } from '../route-group.ts';
import type { Language } from '../../schemas/incentives/enums.ts';
import type { RemModel } from '../../schemas/rem-model.ts';
import { errorBodySchema, errors } from '../errors.ts';
import { localizedValidationError } from '../http/request-validation.ts';
import { sendJson } from '../http/send-json.ts';
import { remMessages } from './messages.ts';
import { countyFipsOf, profileEstimateType } from './profile-features.ts';
import { answerOfLines } from './cluster-statistics-store.ts';
import { countyInputs } from './county-inputs.ts';
import { placeKey, type RemSnapshot } from './rem-data.ts';
import { buildingNotSupported, modelWork, readyRemData, requireWaterHeaterFuel } from './savings-request.ts';
import { savingsBody } from './savings-body.ts';

/** The county code's format, in the route's own words (the schema's pattern says nothing to a person). */
const countyFormat = (issue: z.core.$ZodIssue, language: Language) =>
  issue.code === 'invalid_format' && issue.path.join('.') === 'building_profile.county'
    ? remMessages[language].countyFormat
    : undefined;

/**
 * POST /api/v1/rem/profile: like /rem/address, for the homes of a county that match a building profile,
 * computed on demand (never cached: a POST) by the REM model, off the event loop.
 */
export function registerProfileRoute(
  app: ZodApp,
  ctx: RouteGroupContext<RemSnapshot>,
  model: Pick<RemModel, 'profile'>,
): void {
  app.post(
    '/api/v1/rem/profile',
    {
      schema: {
        summary: 'Energy, emissions and bill change of an upgrade for homes matching a building profile',
        description:
          "Sample homes are drawn for the profile's county and fuels, and those matching every known " +
          'building feature are kept (`estimate_type: "address_level"`; with no known feature, every home ' +
          'drawn is kept: `county_level`); computed for each request. Unknown top-level fields are refused ' +
          '(400 naming the field).',
        operationId: 'postRemProfile',
        body: remProfileBodySchema,
        response: {
          200: savingsSchema,
          404: errorBodySchema.describe('No county has this code (field "building_profile.county")'),
          503: errorBodySchema.describe(
            'No snapshot with REM data yet, or too many profiles waiting to be computed (with Retry-After)',
          ),
        },
      },
      schemaErrorFormatter: localizedValidationError(countyFormat),
    },
    async (request, reply) => {
      const { body } = request;
      const text = remMessages[body.language];
      requireWaterHeaterFuel(body, text);
      const data = readyRemData(ctx.data(request), text, ctx.precompute());
      const county = data.counties.get(countyFipsOf(body.building_profile.county));
      if (!county) {
        throw errors.notInData(text.countyUnknown(body.building_profile.county), 'building_profile.county');
      }
      const place = `${county.name}, ${county.state}`;
      // The job carries the pinned snapshot's rows, so a snapshot swap meanwhile cannot change the answer.
      const basis = body.grid_emissions;
      const result = await modelWork(model.profile({ ...countyInputs(data, county, basis), body }), text);
      if (result.supported && result.lines.length > 0) {
        return sendJson(
          reply,
          savingsBody(answerOfLines(result.lines), {
            ratesAndFactorsJson: data.ratesAndFactorsJson.get(placeKey(county, basis))!,
            modelJson: data.modelJson,
            estimateType: profileEstimateType(body.building_profile.building_features),
          }),
        );
      }
      if (result.supported) throw errors.badRequest(text.upgradeNotApplicable(place), 'upgrade');
      if (result.reason === 'too_few_matches') {
        throw errors.badRequest(text.tooFewMatches(place), 'building_profile.building_features');
      }
      throw buildingNotSupported(body.heating_fuel, body.water_heater_fuel ?? null, place, text);
    },
  );
}
