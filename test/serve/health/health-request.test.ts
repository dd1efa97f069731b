import { describe, expect, it } from 'vitest';
import { healthImpactsRequestSchema } from '../../../schemas/health-api.ts';
import {
  fipsCodeMessage,
  healthAnswerKey,
  requireWildcardAlone,
  resolveAreas,
} from '../../../serve/health/health-request.ts';
import type { HealthData } from '../../../serve/health/health-data.ts';
import { HttpError } from '../../../serve/errors.ts';
import { healthMessages } from '../../../serve/health/messages.ts';

const TEXAS_COUNTIES = healthImpactsRequestSchema.parse({
  metrics: ['avoided_premature_mortality_incidence', 'fine_particulate_matter'],
  upgrade: ['hvac__heat_pump_seer18_hspf10'],
  state_fips: ['48'],
  county_fips: ['201', '113'],
  group_by: ['housing_type', 'house_size_square_feet_binned'],
});

describe('healthAnswerKey', () => {
  it('names a request by its lists, the FIPS codes and groups in sorted order, metrics as given', () => {
    expect(healthAnswerKey(TEXAS_COUNTIES)).toBe(
      '[["avoided_premature_mortality_incidence","fine_particulate_matter"],["hvac__heat_pump_seer18_hspf10"],' +
        '["48"],["113","201"],["house_size_square_feet_binned","housing_type"],"long_run","en"]',
    );
    const reordered = {
      ...TEXAS_COUNTIES,
      county_fips: ['113', '201'],
      group_by: TEXAS_COUNTIES.group_by!.toReversed(),
    };
    expect(healthAnswerKey(reordered)).toBe(healthAnswerKey(TEXAS_COUNTIES));
    // The rows come in the order of the metrics asked: another order is another answer.
    const metrics = { ...TEXAS_COUNTIES, metrics: TEXAS_COUNTIES.metrics.toReversed() };
    expect(healthAnswerKey(metrics)).not.toBe(healthAnswerKey(TEXAS_COUNTIES));
    expect(healthAnswerKey({ ...TEXAS_COUNTIES, language: 'es' })).not.toBe(healthAnswerKey(TEXAS_COUNTIES));
    const today = { ...TEXAS_COUNTIES, grid_emissions: 'current_average' as const };
    expect(healthAnswerKey(today)).not.toBe(healthAnswerKey(TEXAS_COUNTIES));
  });
});

describe('requireWildcardAlone', () => {
  it("refuses '*' beside other counties (the schema alone allows it), naming county_fips in the body's language", () => {
    expect(() =>
      requireWildcardAlone({ ...TEXAS_COUNTIES, county_fips: ['*'] }, healthMessages.en),
    ).not.toThrow();
    expect(() => requireWildcardAlone(TEXAS_COUNTIES, healthMessages.en)).not.toThrow();
    expect(() =>
      requireWildcardAlone({ ...TEXAS_COUNTIES, county_fips: ['*', '001'] }, healthMessages.es),
    ).toThrow(
      expect.objectContaining({
        statusCode: 400,
        field: 'county_fips',
        message: healthMessages.es.countyFipsFormat('*'),
      }),
    );
  });
});

describe('fipsCodeMessage', () => {
  const issueOf = (body: unknown) => healthImpactsRequestSchema.safeParse(body).error!.issues[0]!;

  it('names the code at fault in a FIPS list, and leaves other issues to the common words', () => {
    const state = { ...TEXAS_COUNTIES, state_fips: ['48', 'TX'] };
    expect(fipsCodeMessage(issueOf(state), 'en', state)).toBe(healthMessages.en.stateFipsFormat('TX'));
    const county = { ...TEXAS_COUNTIES, county_fips: ['201', '1'] };
    expect(fipsCodeMessage(issueOf(county), 'es', county)).toBe(healthMessages.es.countyFipsFormat('1'));
    const metric = { ...TEXAS_COUNTIES, metrics: ['deaths'] };
    expect(fipsCodeMessage(issueOf(metric), 'en', metric)).toBeUndefined();
    const repeated = { ...TEXAS_COUNTIES, state_fips: ['48', '48'] };
    expect(fipsCodeMessage(issueOf(repeated), 'en', repeated)).toBeUndefined();
  });

  it('names the place in the list of a code not given as text, and shows it as text when it can be one', () => {
    const cases: [unknown, string][] = [
      [
        { ...TEXAS_COUNTIES, state_fips: [48] },
        'state_fips: item 0 must be text, not 48: a 2-digit state FIPS code in quotes, such as "48"',
      ],
      [
        { ...TEXAS_COUNTIES, state_fips: ['44', 6] },
        'state_fips: item 1 must be text, not 6: a 2-digit state FIPS code in quotes, such as "06"',
      ],
      [
        { ...TEXAS_COUNTIES, state_fips: [null] },
        'state_fips: item 0 must be text, not null: a 2-digit state FIPS code in quotes, such as "44"',
      ],
      [
        { ...TEXAS_COUNTIES, state_fips: [480] },
        'state_fips: item 0 must be text, not 480: a 2-digit state FIPS code in quotes, such as "44"',
      ],
      [
        { ...TEXAS_COUNTIES, county_fips: ['201', 7.5] },
        'county_fips: item 1 must be text, not 7.5: a 3-digit county FIPS code in quotes, such as "007"',
      ],
      [
        { ...TEXAS_COUNTIES, county_fips: [[201]] },
        'county_fips: item 0 must be text, not [201]: a 3-digit county FIPS code in quotes, such as "007"',
      ],
      [
        { ...TEXAS_COUNTIES, county_fips: [113] },
        'county_fips: item 0 must be text, not 113: a 3-digit county FIPS code in quotes, such as "113"',
      ],
    ];
    for (const [body, message] of cases) expect(fipsCodeMessage(issueOf(body), 'en', body)).toBe(message);
    const spanish = { ...TEXAS_COUNTIES, county_fips: [5] };
    expect(fipsCodeMessage(issueOf(spanish), 'es', spanish)).toBe(
      'county_fips: el elemento 0 debe ser texto, no 5: un código FIPS de condado de 3 dígitos entre comillas, como "005"',
    );
  });
});

describe('resolveAreas while a fresh lake’s precompute runs', () => {
  // The first answers' snapshot: Rhode Island's rollup, the other states on their way.
  const rhodeIslandOnly = { stateIndex: new Map([['44', 0]]) } as unknown as HealthData;
  const simulating = {
    step: 'simulate clusters',
    count: 3441,
    total: 13_764,
    unit: 'clusters',
    left: { lowMs: 89_500, highMs: 89_500 },
  };
  const ask = (state_fips: string[] | undefined, language: 'en' | 'es' = 'en') =>
    healthImpactsRequestSchema.parse({
      metrics: ['ammonia'],
      upgrade: ['hvac__heat_pump_seer18_hspf10'],
      state_fips,
      language,
    });
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (err) {
      if (err instanceof HttpError) return [err.statusCode, err.headers, err.message, err.field];
    }
    throw new Error('expected an HttpError');
  };

  it('answers a state it has, and a 503 with the whole precompute’s time for one it lacks or for all', () => {
    expect(resolveAreas(rhodeIslandOnly, ask(['44']), healthMessages.en, simulating)).toEqual({
      level: 'state',
      positions: [0],
    });
    expect(refusal(() => resolveAreas(rhodeIslandOnly, ask(['48']), healthMessages.en, simulating))).toEqual([
      503,
      { 'retry-after': '90' },
      'state_fips: 48 (TX) is being precomputed (now simulate clusters: 3,441 of 13,764 clusters, 25%; about 2 min ' +
        'left in all); retry later, or ask for a state already served',
      undefined,
    ]);
    expect(
      refusal(() => resolveAreas(rhodeIslandOnly, ask(undefined, 'es'), healthMessages.es, simulating)),
    ).toEqual([
      503,
      { 'retry-after': '90' },
      'Por ahora se sirven los impactos en la salud de 1 estado y los demás se están precalculando (ahora simulate ' +
        'clusters: 3.441 de 13.764 clusters, 25 %; quedan unos 2 min en total); indique estados en state_fips o ' +
        'vuelva a intentarlo más tarde para todos',
      undefined,
    ]);
  });

  it('answers 404 for a state the data lacks once no precompute runs', () => {
    expect(refusal(() => resolveAreas(rhodeIslandOnly, ask(['48']), healthMessages.en, null))).toEqual([
      404,
      {},
      'state_fips: 48 (TX) has no health impacts in the data being served',
      'state_fips',
    ]);
  });
});
