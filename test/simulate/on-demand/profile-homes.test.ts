import { describe, expect, it } from 'vitest';
import { HEAT_PUMPS } from '../../../model/equipment/heat-pumps.ts';
import { profileMatcher, vintageBinOf } from '../../../simulate/on-demand/profile-homes.ts';
import { electricSlabHome, gasHeatedHome } from '../../model/homes.ts';

// gasHeatedHome: 2,000 ft², 2 stories, 1975, 3 bedrooms, vented attic, furnace, central AC.
// electricSlabHome: 1,500 ft², 1 story, 1995, electric baseboard, room AC.
const gas = gasHeatedHome();
const electric = electricSlabHome();
const ductlessHeatPumpHome = electricSlabHome({
  heatingType: 'heat_pump',
  coolingType: 'heat_pump',
  heatPump: { ...HEAT_PUMPS.seer15Hspf9.ductless, sizing: 'acca' },
});

describe('profileMatcher', () => {
  it('matches every home when nothing is known', () => {
    expect(profileMatcher({})(gas)).toBe(true);
    expect(profileMatcher({ geometry_floor_area: null, bedrooms: null })(electric)).toBe(true);
  });

  it('matches floor area within 20 %, and stories, bedrooms and the vintage decade exactly', () => {
    expect(profileMatcher({ geometry_floor_area: 1700 })(gas)).toBe(true); // 2,000 is 17.6 % over
    expect(profileMatcher({ geometry_floor_area: 1600 })(gas)).toBe(false); // 25 % over
    expect(profileMatcher({ geometry_stories: 2, bedrooms: 3 })(gas)).toBe(true);
    expect(profileMatcher({ geometry_stories: 1 })(gas)).toBe(false);
    expect(profileMatcher({ vintage: 1972 })(gas)).toBe(true);
    expect(profileMatcher({ vintage: 1981 })(gas)).toBe(false);
  });

  it('matches list features when the home has any of the allowed values', () => {
    expect(profileMatcher({ hvac_heating_type: ['Ducted Heating'] })(gas)).toBe(true);
    expect(profileMatcher({ hvac_heating_type: ['Non-Ducted Heating'] })(gas)).toBe(false);
    expect(profileMatcher({ hvac_heating_type: ['Non-Ducted Heating', 'Ducted Heating'] })(electric)).toBe(
      true,
    );
    expect(profileMatcher({ hvac_cooling_type: ['Room AC'] })(electric)).toBe(true);
    expect(profileMatcher({ hvac_cooling_type: ['None'] })(electric)).toBe(false);
    expect(profileMatcher({ hvac_heating_type: ['Non-Ducted Heat Pump'] })(ductlessHeatPumpHome)).toBe(true);
    expect(profileMatcher({ hvac_heating_type: ['Ducted Heat Pump'] })(ductlessHeatPumpHome)).toBe(false);
    expect(profileMatcher({ geometry_building_type_acs: ['Single-Family Detached'] })(gas)).toBe(true);
    expect(profileMatcher({ geometry_attic_type: ['Finished Attic or Cathedral Ceilings'] })(gas)).toBe(
      false,
    );
  });

  it('matches no home for values outside the model: multi-unit buildings, unheated homes', () => {
    expect(profileMatcher({ geometry_building_type_acs: ['2 Unit', '3 or 4 Unit'] })(gas)).toBe(false);
    expect(profileMatcher({ hvac_heating_type: ['None'] })(electric)).toBe(false);
  });
});

describe('vintageBinOf', () => {
  it('bins a year as the sampler does', () => {
    expect([1890, 1939, 1940, 1975, 1999, 2010, 2024].map(vintageBinOf)).toEqual([
      1930, 1930, 1945, 1975, 1995, 2015, 2015,
    ]);
  });
});
