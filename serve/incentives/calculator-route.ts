import {
  calculatorQuerySchema,
  calculatorResponseSchema,
  type CalculatorQuery,
} from '../../schemas/incentives/api.ts';
import type { RouteGroupContext, ZodApp } from '../route-group.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { sendJson } from '../http/send-json.ts';
import { calculatorAnswerKey } from './calculator-answer-key.ts';
import { calculateIncentives, calculateWithTerritory } from './eligibility/calculate-incentives.ts';
import { incomeClass } from './eligibility/income-class.ts';
import { omittedUtilities } from './eligibility/omitted-utilities.ts';
import type { IncentivesData } from './incentives-data.ts';
import {
  geocoderUnavailableResponse,
  keepLocatedAnswer,
  locationNotFoundResponse,
} from './location-routes.ts';
import { messages } from './messages.ts';
import { calculatorBody } from './response-bodies.ts';
import {
  locationNotFound,
  requireRequestedUtilities,
  resolveLocation,
  resolveUtilities,
} from './resolve-location.ts';

/**
 * GET /api/v1/calculator: the incentives a household is eligible for at a location. Every income of one
 * income class at a ZIP gets the same answer, so the route keys its answers by class (`answerKey`):
 * one cached answer and one ETag per class.
 */
export function registerCalculatorRoute(
  app: ZodApp,
  ctx: RouteGroupContext<IncentivesData>,
  geocoder: Geocoder,
): void {
  app.get(
    '/api/v1/calculator',
    {
      schema: {
        summary: 'Incentives a household is eligible for at a location',
        description:
          'Federal, state, utility and local incentives, filtered by the household and location, sorted by ' +
          'payment method and amount. Arrays accept `a=x,y`, repeated keys, `a[]=` and `a[0]=`.',
        operationId: 'getCalculatedIncentives',
        querystring: calculatorQuerySchema,
        response: {
          200: calculatorResponseSchema,
          404: locationNotFoundResponse,
          503: geocoderUnavailableResponse,
        },
      },
      config: {
        answerKey: (request) => calculatorAnswerKey(ctx.data(request), request.query as CalculatorQuery),
        keepAnswer: keepLocatedAnswer(geocoder),
      },
    },
    async (request, reply) => {
      const data = ctx.data(request);
      const { query } = request;
      const text = messages[query.language];
      const location = await resolveLocation(data, query, geocoder, text);
      const catalog = data.states.get(location.state);
      const utilityGeographyIds = resolveUtilities(catalog, location, query, text);
      if (location.ami80 === null || location.ami150 === null || location.evChargerEligible === null) {
        throw locationNotFound(text.noDataForLocation);
      }
      requireRequestedUtilities(query, text.utilityRequired, text);
      const income = incomeClass(data, location, {
        income: query.household_income,
        size: query.household_size,
        taxFiling: query.tax_filing,
      });
      const calculationRequest = {
        ownerStatus: query.owner_status,
        income,
        authorityTypes: query.authority_types,
        items: query.items,
        includeBetaStates: query.include_beta_states,
        utilityGeographyIds,
      };
      const today = ctx.asOfDate(request);
      const calculation = calculateIncentives(data, location, calculationRequest, today);
      // What each utility the request left out would add (omittedUtilities).
      const omitted =
        calculation.coveredState &&
        omittedUtilities(
          location,
          calculation.coveredState,
          { given: query, answer: calculation.incentives },
          (geographyId) =>
            calculateWithTerritory(data, location, calculationRequest, today, calculation, geographyId)
              .incentives,
          (incentive) => incentive.amount,
        );
      return sendJson(reply, calculatorBody(calculation, location, query.utility, query.language, omitted));
    },
  );
}
