import { z } from 'zod';
import { countyFipsSchema } from './codes.ts';

/** The columns that name a county in a per-county answer (the county map's routes), first in each row. */
export const countyColumns = {
  county_fips: countyFipsSchema.describe('5-digit county FIPS code (state and county)'),
  county_name: z.string(),
  state_abbreviation: z.string().length(2),
};
