import type { FastifyReply, FastifyRequest } from 'fastify';
import { remProfileBodySchema, savingsSchema, type RemProfileBody } from '../../schemas/rem-api.ts';
import type { ZodApp } from '../api-module.ts';
import { HttpError, errorBodySchema } from '../errors.ts';
import { committedSurrogate } from './committed-surrogate.ts';
import { remMessages, type RemMessages } from './messages.ts';
import { countyFipsOf } from './profile-features.ts';
import { profileAnswer } from './profile-savings.ts';
import type { RemData } from './rem-data.ts';
import { savingsBody } from './savings-body.ts';

const badRequest = (message: string, field: string) => new HttpError(400, 'BAD_REQUEST', message, field);

export interface ProfileRouteHelpers {
  remData(request: FastifyRequest, text: RemMessages): RemData;
  requireWaterHeaterFuel(query: RemProfileBody, text: RemMessages): void;
  send(reply: FastifyReply, body: Buffer | string): FastifyReply;
}

/**
 * POST /api/v1/rem/profile: like /rem/address, for the homes of a county that match a building profile,
 * computed on demand (never cached: a POST).
 */
export function registerProfileRoute(app: ZodApp, helpers: ProfileRouteHelpers): void {
  app.post(
    '/api/v1/rem/profile',
    {
      schema: {
        summary: 'Energy, emissions and bill change of an upgrade for homes matching a building profile',
        description:
          "Sample homes are drawn for the profile's county and fuels, and those matching every known " +
          'building feature are kept (`estimate_type: "address_level"`); computed for each request.',
        operationId: 'postRemProfile',
        body: remProfileBodySchema,
        response: {
          200: savingsSchema,
          404: errorBodySchema.describe('No county has this code (field "building_profile.county")'),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const text = remMessages[body.language];
      helpers.requireWaterHeaterFuel(body, text);
      const data = helpers.remData(request, text);
      const county = data.counties.get(countyFipsOf(body.building_profile.county));
      if (!county) {
        throw new HttpError(
          404,
          'NOT_FOUND',
          text.countyUnknown(body.building_profile.county),
          'building_profile.county',
        );
      }
      const place = `${county.name}, ${county.state}`;
      const result = await profileAnswer(body, {
        county,
        rates: data.rates,
        factors: data.factors,
        surrogate: await committedSurrogate(),
      });
      if ('answer' in result) {
        return helpers.send(
          reply,
          savingsBody(result.answer, {
            ratesAndFactorsJson: data.ratesAndFactorsJson.get(county.state)!,
            modelJson: data.modelJson,
            estimateType: 'address_level',
          }),
        );
      }
      if ('notApplicable' in result) throw badRequest(text.upgradeNotApplicable(place), 'upgrade');
      if (result.reason === 'too_few_matches') {
        throw badRequest(text.tooFewMatches(place), 'building_profile.building_features');
      }
      const waterHeater = body.water_heater_fuel ?? null;
      throw badRequest(
        text.buildingNotSupported(body.heating_fuel, waterHeater, place),
        waterHeater === null ? 'heating_fuel' : 'water_heater_fuel',
      );
    },
  );
}
