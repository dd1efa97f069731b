import { z } from 'zod';
import {
  amountTypeSchema,
  amountUnitSchema,
  authorityTypeSchema,
  filingStatusSchema,
  itemSchema,
  languageSchema,
  ownerStatusSchema,
  paymentMethodSchema,
  stateCodeSchema,
} from './enums.ts';
import { calculatorRequestExample as request, calculatorResponseExample } from './api-examples.ts';
import { loanProgramRecordSchema } from './records.ts';

/**
 * Requests and responses of the incentives API. Request schemas validate (after `coerceQuery`) and, with
 * the response schemas, describe the API in /spec.json. Responses are assembled from pre-serialised
 * fragments rather than validated per request (see serve/incentives), so they must match these shapes.
 */

const uniqueList = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .min(1)
    .refine((list) => new Set(list).size === list.length, { message: 'must not repeat a value' });

const location = {
  // The format is checked here, not left to the lookup: "ABCDE" is a mistake to correct (400 naming zip),
  // not a ZIP that no data covers (404). The reference passes any 5 characters on and answers 404.
  zip: z
    .string()
    .regex(/^\d{5}$/, { message: 'must be a five-digit ZIP code, such as 02116' })
    .optional()
    .describe('Five-digit ZIP code. Give either zip or address.')
    .meta({ examples: [request.zip] }),
  address: z
    .string()
    .min(1)
    .optional()
    .describe('A US street address (geocoded to a ZIP and state). Give either zip or address.'),
};
const language = languageSchema.default('en').describe('Language of names and descriptions (en or es)');
const utility = z
  .string()
  .min(1)
  .optional()
  .describe('Electric utility id, e.g. ri-rhode-island-energy (see /utilities)')
  .meta({ examples: [request.utility] });
const gasUtility = z
  .string()
  .min(1)
  .optional()
  .describe('Gas utility id, or "none" for a home without gas service');
const authorityTypes = uniqueList(authorityTypeSchema)
  .optional()
  .describe('Only incentives of these authority types; a list: comma-separated or repeated');

const items = uniqueList(itemSchema)
  .optional()
  .describe('Only incentives for these items; comma-separated or repeated');
const includeBetaStates = z
  .boolean()
  .default(false)
  .describe('Also offer the incentives of states whose data is not launched yet');

const exactlyOneLocation = (query: { zip?: string | undefined; address?: string | undefined }) =>
  (query.zip === undefined) !== (query.address === undefined);
const locationRule = { message: 'give exactly one of zip and address', path: ['zip'] };

export const calculatorQuerySchema = z
  .object({
    ...location,
    owner_status: ownerStatusSchema
      .describe('Whether the household owns or rents its home')
      .meta({ examples: [request.owner_status] }),
    household_income: z
      .number()
      .min(0)
      .max(100_000_000)
      .int()
      .describe('Annual household income in dollars')
      .meta({ examples: [request.household_income] }),
    household_size: z
      .number()
      .min(1)
      .max(8)
      .int()
      .describe('People in the household (1–8)')
      .meta({ examples: [request.household_size] }),
    tax_filing: filingStatusSchema
      .optional()
      .describe('Federal income tax filing status')
      .meta({ examples: [request.tax_filing] }),
    authority_types: authorityTypes,
    utility,
    gas_utility: gasUtility,
    items,
    language,
    include_beta_states: includeBetaStates,
  })
  .refine(exactlyOneLocation, locationRule);
export type CalculatorQuery = z.infer<typeof calculatorQuerySchema>;

export const locationQuerySchema = z
  .object({ ...location, language })
  .refine(exactlyOneLocation, locationRule);
export type LocationQuery = z.infer<typeof locationQuerySchema>;

export const programsQuerySchema = z
  .object({ ...location, authority_types: authorityTypes, utility, gas_utility: gasUtility, language })
  .refine(exactlyOneLocation, locationRule);
export type ProgramsQuery = z.infer<typeof programsQuerySchema>;

/** How many incentives a page of the list holds: by default, and at most. */
export const INCENTIVES_PAGE_SIZE = { default: 100, max: 500 } as const;

export const incentivesListQuerySchema = z.object({
  state: stateCodeSchema
    .optional()
    .describe('Only the incentives offered in this state (two-letter code): its own and the federal ones')
    .meta({ examples: ['RI'] }),
  authority_types: authorityTypes,
  items,
  include_beta_states: includeBetaStates,
  language,
  page_size: z
    .number()
    .int()
    .min(1)
    .max(INCENTIVES_PAGE_SIZE.max)
    .default(INCENTIVES_PAGE_SIZE.default)
    .describe(`Incentives per page (1–${INCENTIVES_PAGE_SIZE.max})`),
  page_token: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The `next_page_token` of the previous page, to get the next one (with the same filters). It is only ' +
        'good while the snapshot that gave it is served: after a new snapshot is published it is refused ' +
        '(400), and the walk starts again without it.',
    ),
});
export type IncentivesListQuery = z.infer<typeof incentivesListQuerySchema>;

export const statesQuerySchema = z.object({
  include_beta_states: z
    .boolean()
    .default(false)
    .describe(
      'Report "beta" for states with incentive data that are not launched (the reference never does)',
    ),
});

const logoSchema = z.object({ src: z.string(), width: z.number(), height: z.number() });
const namedSchema = z.object({ name: z.string(), logo: logoSchema.optional() });
const responseLocation = z.object({
  state: z.string(),
  city: z.string().optional(),
  county_fips: z.string().optional(),
});

export const apiIncentiveSchema = z
  .object({
    payment_methods: z.array(paymentMethodSchema).min(1),
    authority_type: authorityTypeSchema,
    authority: z.string().optional().describe('Absent for federal incentives'),
    program: z.string().describe('The program’s name'),
    program_url: z.string(),
    more_info_url: z.string().optional(),
    paused: z.boolean().optional(),
    items: z.array(itemSchema),
    amount: z.object({
      type: amountTypeSchema,
      number: z.number(),
      maximum: z.number().optional(),
      minimum: z.number().optional().describe('Not in the reference response'),
      representative: z.number().optional(),
      unit: amountUnitSchema.optional(),
    }),
    owner_status: z.array(ownerStatusSchema).min(1),
    start_date: z.string().optional(),
    end_date: z.string().optional(),
    short_description: z.string().optional(),
    id: z.string().describe('Stable incentive id (not in the reference response)'),
  })
  .meta({ id: 'APIIncentive' });

/** Per utility parameter a request left out, what giving each serving utility adds (issue: incentives missed in silence). */
function omittedUtilitiesSchema<Gain extends z.ZodObject>(gain: Gain) {
  const omitted = z.object({
    message: z.string().describe('What was left out and how to give it, in the language asked for'),
    utilities: z.array(gain).describe('Every utility of that kind serving the location, predominant first'),
  });
  return z
    .object({ utility: omitted.optional(), gas_utility: omitted.optional() })
    .optional()
    .describe(
      'Sent only when the request left out `utility` or `gas_utility` and giving one of the utilities serving ' +
        'the location would add to the answer: per parameter left out, those utilities and what each adds. ' +
        'Not in the reference response.',
    );
}

const utilityGain = {
  id: z.string().describe('The id to give as the parameter'),
  name: z.string(),
};

export const calculatorResponseSchema = z
  .object({
    is_under_80_ami: z.boolean(),
    is_under_150_ami: z.boolean(),
    is_over_150_ami: z.boolean(),
    authorities: z.record(z.string(), namedSchema),
    coverage: z.object({ state: z.string().nullable(), utility: z.string().nullable() }),
    location: responseLocation,
    data_partners: z.record(z.string(), namedSchema),
    incentives: z.array(apiIncentiveSchema),
    omitted_utilities: omittedUtilitiesSchema(
      z.object({
        ...utilityGain,
        additional_incentives: z
          .number()
          .int()
          .nonnegative()
          .describe('Incentives the household would also qualify for with this utility'),
        additional_up_to_usd: z
          .number()
          .nonnegative()
          .describe(
            'The most those incentives pay together, in dollars: the sum of their dollar caps (an amount ' +
              'with no dollar cap, such as a percentage without a maximum, adds nothing)',
          ),
      }),
    ),
  })
  .meta({
    id: 'APICalculatorResponse',
    description: 'The incentives the household is eligible for, with the authorities that offer them',
    example: calculatorResponseExample,
  });

export const utilitiesResponseSchema = z
  .object({
    location: z.object({ state: z.string() }),
    utilities: z.record(z.string(), z.object({ name: z.string() })),
    gas_utilities: z
      .record(z.string(), z.object({ name: z.string() }))
      .optional()
      .describe('Absent where the data has no gas utility territories for the state'),
    gas_utility_affects_incentives: z.boolean().optional(),
  })
  .meta({ id: 'APIUtilitiesResponse', description: 'The utilities serving the location' });

const programSchema = z.object({
  name: z.string(),
  url: z.string(),
  authority_type: authorityTypeSchema,
  authority: z.string().optional(),
  items: z.array(itemSchema).optional(),
});

export const programsResponseSchema = z
  .object({
    authorities: z.record(z.string(), namedSchema),
    coverage: z.object({ state: z.string().nullable(), utility: z.string().nullable() }),
    location: z.object({ state: z.string() }),
    programs: z.record(z.string(), programSchema),
    omitted_utilities: omittedUtilitiesSchema(
      z.object({
        ...utilityGain,
        additional_programs: z
          .number()
          .int()
          .nonnegative()
          .describe('Programs also offered at the location with this utility'),
      }),
    ),
  })
  .meta({ id: 'APIProgramsResponse', description: 'The programs offered at the location, by id' });

/** An incentive of the list: the calculator's incentive, with its program in full and its state. */
export const listedIncentiveSchema = apiIncentiveSchema
  .extend({
    state: z.string().nullable().describe('The state whose data lists it; null for a federal incentive'),
    program: programSchema.extend({ id: z.string() }).describe('The program that offers it'),
    low_income: z
      .string()
      .optional()
      .describe('Id of the income limit the incentive is restricted to; absent when it has none'),
    eligible_geo_group: z
      .string()
      .optional()
      .describe('Id of the group of areas the incentive is restricted to, beyond its authority’s'),
  })
  .meta({ id: 'APIListedIncentive' });

export const incentivesListResponseSchema = z
  .object({
    snapshot: z
      .string()
      .describe('The data snapshot every incentive of the page comes from (also the X-Snapshot-Id header)'),
    total: z.number().int().nonnegative().describe('Incentives matching the filters, over all pages'),
    incentives: z.array(listedIncentiveSchema),
    next_page_token: z
      .string()
      .nullable()
      .describe('Gives the next page as `page_token`; null on the last page'),
  })
  .meta({
    id: 'APIIncentivesListResponse',
    description:
      'One page of the incentive catalog, ordered by state (federal first), authority id, then incentive id',
  });

// The response is the upstream record as published, less our ordering column: one definition for both.
export const loanProgramsResponseSchema = z
  .array(loanProgramRecordSchema.omit({ position: true }))
  .meta({ id: 'APILoanProgramsResponse', description: 'The loan programs of the location’s state' });

export const statesResponseSchema = z
  .record(z.string(), z.object({ status: z.enum(['launched', 'beta', 'none']) }))
  .meta({ id: 'APIStatesResponse', description: 'Launch status by state code' });
