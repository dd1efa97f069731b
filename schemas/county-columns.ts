import { z } from 'zod';

/** The columns that name a county in a per-county answer (the county map's routes), first in each row. */
export const countyColumns = {
  county_fips: z
    .string()
    .regex(/^\d{5}$/)
    .describe('5-digit county FIPS code (state and county)'),
  county_name: z.string(),
  state_abbreviation: z.string().length(2),
};
