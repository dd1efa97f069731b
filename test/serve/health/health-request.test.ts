import { describe, expect, it } from 'vitest';
import { healthAnswerKey, validateHealthRequest } from '../../../serve/health/health-request.ts';

const TEXAS_COUNTIES = {
  metrics: ['avoided_premature_mortality_incidence'],
  upgrade: ['hvac__heat_pump_seer18_hspf10'],
  state_fips: ['48'],
  county_fips: ['*'],
};

describe('a health-impacts body', () => {
  it('is parsed once when its answer key was asked for: the handler gets the request the key was made from', () => {
    const body = structuredClone(TEXAS_COUNTIES);
    const key = healthAnswerKey(body);
    expect(key).toBe(
      '[["avoided_premature_mortality_incidence"],["hvac__heat_pump_seer18_hspf10"],["48"],["*"],null,"long_run","en"]',
    );
    const request = validateHealthRequest(body);
    expect(validateHealthRequest(body)).toBe(request);
    expect(request).toEqual({ ...TEXAS_COUNTIES, grid_emissions: 'long_run', language: 'en' });
  });

  it('is parsed on its own when no key was asked for, to the same request', () => {
    const keyed = structuredClone(TEXAS_COUNTIES);
    healthAnswerKey(keyed);
    const fresh = validateHealthRequest(structuredClone(TEXAS_COUNTIES));
    expect(fresh).toEqual(validateHealthRequest(keyed));
    expect(fresh).not.toBe(validateHealthRequest(keyed));
  });

  it("still refuses '*' beside other counties after its key was made (the schema alone allows it)", () => {
    const body = { ...structuredClone(TEXAS_COUNTIES), county_fips: ['*', '001'] };
    expect(healthAnswerKey(body)).toBeDefined();
    expect(() => validateHealthRequest(body)).toThrow(
      expect.objectContaining({ statusCode: 400, field: 'county_fips' }),
    );
  });
});
