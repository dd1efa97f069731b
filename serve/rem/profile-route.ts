import type { z } from 'zod';
import { remProfileBodySchema, savingsSchema, type RemProfileBody } from '../../schemas/rem-api.ts';
import type { ApiModuleContext, ZodApp } from '../api-module.ts';
import type { Config } from '../../schemas/config.ts';
import type { Language } from '../../schemas/incentives/enums.ts';
import { ThreadPool, ThreadPoolFull, threadBootstrap } from '../../lib/thread-pool.ts';
import { errorBodySchema, errors } from '../errors.ts';
import { validateRequest, validatedByHandler } from '../http/request-validation.ts';
import { sendJson } from '../http/send-json.ts';
import { remMessages } from './messages.ts';
import { countyFipsOf, profileEstimateType } from './profile-features.ts';
import { profileJob, type ProfileJob, type ProfileResult } from './profile-savings.ts';
import type { RemSnapshot } from './rem-data.ts';
import { buildingNotSupported, readyRemData, requireWaterHeaterFuel } from './savings-request.ts';
import { savingsBody } from './savings-body.ts';

/**
 * A profile not answered in this time fails (500) and its thread is replaced: a profile is milliseconds of
 * work, but a thread's first job also waits for it to load its modules and surrogate (seconds on a busy machine).
 */
const PROFILE_TIMEOUT_MS = 30_000;
/**
 * A profile thread's heap bound: a thread keeps its modules, sampler tables and surrogate live and a
 * request allocates a few MB more, so a tight bound makes V8 collect early instead of letting the thread's
 * heap grow (the REM bench reports the RSS it costs); a thread that still runs out dies like a crashed one
 * (500, replaced).
 */
const PROFILE_THREAD_HEAP = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };
/** Seconds a client is told to wait when every thread is busy and the queue is full. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** The threads that compute profiles (REM_PROFILE_WORKERS), off the event loop that serves every route. */
const profileThreads = (config: Config) =>
  new ThreadPool<ProfileJob, ProfileResult>({
    bootstrap: threadBootstrap(import.meta.url, 'profile-thread'),
    threads: config.REM_PROFILE_WORKERS,
    maxQueued: config.REM_PROFILE_QUEUE,
    timeoutMs: PROFILE_TIMEOUT_MS,
    resourceLimits: PROFILE_THREAD_HEAP,
  });

/** The county code's format, in the route's own words (the schema's pattern says nothing to a person). */
const countyFormat = (issue: z.core.$ZodIssue, language: Language) =>
  issue.code === 'invalid_format' && issue.path.join('.') === 'building_profile.county'
    ? remMessages[language].countyFormat
    : undefined;

/** The body as a typed profile request, or a 400 naming the field at fault in the body's language. */
export const validateProfileBody = (body: unknown): RemProfileBody =>
  validateRequest(remProfileBodySchema, body, { whole: 'body', ownMessage: countyFormat });

/**
 * POST /api/v1/rem/profile: like /rem/address, for the homes of a county that match a building profile,
 * computed on demand (never cached: a POST) by one of the app's profile threads, closed with the app.
 */
export function registerProfileRoute(app: ZodApp, ctx: ApiModuleContext<RemSnapshot>): void {
  const threads = profileThreads(ctx.config);
  ctx.metrics.watchProfileQueue(() => threads.queued);
  app.addHook('onClose', () => threads.close());
  app.post(
    '/api/v1/rem/profile',
    {
      // Validated by the handler, like every REM request, so its 400s are localized and name the field.
      ...validatedByHandler,
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
    },
    async (request, reply) => {
      const body = validateProfileBody(request.body);
      const text = remMessages[body.language];
      requireWaterHeaterFuel(body, text);
      const data = readyRemData(ctx.data(request), text, ctx.precompute());
      const county = data.counties.get(countyFipsOf(body.building_profile.county));
      if (!county) {
        throw errors.notInData(text.countyUnknown(body.building_profile.county), 'building_profile.county');
      }
      const place = `${county.name}, ${county.state}`;
      // The job carries the pinned snapshot's rows, so a snapshot swap meanwhile cannot change the answer.
      const result = await threads
        .run(profileJob(body, county, data.rates, data.factors))
        .catch((error: unknown) => {
          if (!(error instanceof ThreadPoolFull)) throw error;
          throw errors.overloaded(text.profilesBusy, BUSY_RETRY_AFTER_SECONDS);
        });
      if ('answer' in result) {
        return sendJson(
          reply,
          savingsBody(result.answer, {
            ratesAndFactorsJson: data.ratesAndFactorsJson.get(county.state)!,
            modelJson: data.modelJson,
            estimateType: profileEstimateType(body.building_profile.building_features),
          }),
        );
      }
      if ('notApplicable' in result) throw errors.badRequest(text.upgradeNotApplicable(place), 'upgrade');
      if (result.reason === 'too_few_matches') {
        throw errors.badRequest(text.tooFewMatches(place), 'building_profile.building_features');
      }
      throw buildingNotSupported(body.heating_fuel, body.water_heater_fuel ?? null, place, text);
    },
  );
}
