import { z } from 'zod';

/*
 * The codes the datasets join on, one schema each, shared by source records, lake tables and API answers.
 * A request's field that takes one keeps its own schema where it needs a message naming the field.
 */

/** A US state or DC by its two-letter USPS code, upper case: `MA`. */
export const stateCodeSchema = z.string().regex(/^[A-Z]{2}$/);

/** A county (or county equivalent) by its 5-digit FIPS code, state then county: `25025`. */
export const countyFipsSchema = z.string().regex(/^\d{5}$/);

/** A 5-digit ZIP code: `02116`. */
export const zipCodeSchema = z.string().regex(/^\d{5}$/);

/** A census tract by its 11-digit GEOID, state, county then tract: `25025010802`. */
export const tractGeoidSchema = z.string().regex(/^\d{11}$/);
