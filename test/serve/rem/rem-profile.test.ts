import { describe, expect, it } from 'vitest';
import { savingsSchema } from '../../../schemas/rem-api.ts';
import { REM_TEST_KEY, remServerForSpecs } from '../../support/rem-lake-fixture.ts';

const auth = { authorization: `Bearer ${REM_TEST_KEY}` };

const server = remServerForSpecs('profile');

const post = (body: unknown) =>
  server().app.inject({ method: 'POST', url: '/api/v1/rem/profile', headers: auth, payload: body as object });

const providenceProfile = (features: Record<string, unknown> = {}) => ({
  upgrade: 'hvac__heat_pump_seer18_hspf10',
  heating_fuel: 'natural_gas',
  building_profile: { county: 'G4400070', building_features: features },
});

describe('POST /api/v1/rem/profile', () => {
  it('computes the savings of homes matching the profile, address_level, the same for the same body', async () => {
    const body = providenceProfile({ geometry_floor_area: 1800, hvac_heating_type: ['Ducted Heating'] });
    const response = await post(body);
    expect(response.statusCode).toBe(200);
    const savings = response.json();
    expect(savingsSchema.safeParse(savings).success).toBe(true);
    expect(savings.estimate_type).toBe('address_level');
    const { num_samples, num_excluded_samples } = savings.sampling_details;
    expect(num_samples).toBeGreaterThanOrEqual(50);
    expect(num_samples + num_excluded_samples).toBeLessThanOrEqual(400);
    // A gas-heated home switching to a heat pump burns less gas and uses more electricity.
    expect(savings.fuel_results.natural_gas.delta.energy.mean.value).toBeLessThan(0);
    expect(savings.fuel_results.electricity.delta.energy.mean.value).toBeGreaterThan(0);
    expect(savings.fuel_results.natural_gas.baseline.energy.mean.unit).toBe('therm');
    // mean(upgrade) = mean(baseline) + mean(delta), at the reported precision.
    const total = savings.fuel_results.total;
    expect(total.upgrade.cost.mean.value).toBeCloseTo(
      total.baseline.cost.mean.value + total.delta.cost.mean.value,
      3,
    );
    expect(savings.rates.natural_gas[0]).toEqual({ value: 1.9712, unit: '$/therm', rate_type: 'volumetric' });
    expect((await post(body)).body).toBe(response.body);
    expect(response.headers.etag).toBeUndefined();
  }, 30_000);

  it('labels a profile without building features county_level: every home drawn for the county is kept', async () => {
    for (const features of [{}, { geometry_floor_area: null, hvac_cooling_type: null }]) {
      const response = await post(providenceProfile(features));
      expect(response.statusCode).toBe(200);
      expect(response.json().estimate_type).toBe('county_level');
      expect(response.json().sampling_details.num_samples).toBeGreaterThan(0);
    }
  }, 30_000);

  it('narrows the homes: a larger home has a larger baseline, a 5-digit FIPS names the same county', async () => {
    const small = (await post(providenceProfile({ geometry_floor_area: 1000 }))).json();
    const large = (
      await post({
        ...providenceProfile({ geometry_floor_area: 3500 }),
        building_profile: { county: '44007', building_features: { geometry_floor_area: 3500 } },
      })
    ).json();
    expect(large.fuel_results.total.baseline.energy.mean.value).toBeGreaterThan(
      small.fuel_results.total.baseline.energy.mean.value,
    );
  }, 30_000);

  it('says building_not_supported when too few homes match, naming the features', async () => {
    const response = await post(providenceProfile({ geometry_building_type_acs: ['2 Unit'] }));
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        "building_not_supported: too few of Providence County, RI's sample homes match these building features to estimate; give fewer features",
      field: 'building_profile.building_features',
    });
  });

  it('answers 400/404 naming the field for bad input', async () => {
    const waterHeater = await post({
      ...providenceProfile(),
      upgrade: 'water_heater__heat_pump_uef3.35',
      language: 'es',
    });
    expect(waterHeater.json()).toMatchObject({ statusCode: 400, field: 'water_heater_fuel' });
    expect(waterHeater.json().message).toMatch(/^water_heater_fuel: es obligatorio/);
    const county = await post({ ...providenceProfile(), building_profile: { county: 'G0200200' } });
    expect(county.json()).toMatchObject({ statusCode: 404, field: 'building_profile.county' });
    const badCounty = await post({ ...providenceProfile(), building_profile: { county: 'Providence' } });
    expect(badCounty.json()).toMatchObject({ statusCode: 400, field: 'building_profile.county' });
    const badFeature = await post(providenceProfile({ geometry_stories: 9 }));
    expect(badFeature.json()).toMatchObject({
      statusCode: 400,
      field: 'building_profile.building_features.geometry_stories',
    });
    const badOption = await post(providenceProfile({ hvac_cooling_type: ['Swamp Cooler'] }));
    expect(badOption.json()).toMatchObject({
      statusCode: 400,
      field: 'building_profile.building_features.hvac_cooling_type',
    });
    const notJson = await server().app.inject({
      method: 'POST',
      url: '/api/v1/rem/profile',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"upgrade":',
    });
    expect(notJson.statusCode).toBe(400);
  });
});
