import { z } from 'zod';

/**
 * The parts of a Census Bureau geocoder answer (geographies/onelineaddress, format=json) this service reads;
 * other fields are ignored. Shape documented at
 * https://geocoding.geo.census.gov/geocoder/Geocoding_Services_API.html ("JSON Output Format").
 */
const geographyLayerSchema = z.array(
  z.looseObject({
    GEOID: z.string().optional(),
    STATE: z.string().optional(),
    COUNTY: z.string().optional(),
  }),
);

export const censusAddressMatchSchema = z.looseObject({
  matchedAddress: z.string().optional(),
  coordinates: z.looseObject({ x: z.number(), y: z.number() }).optional(),
  addressComponents: z.looseObject({ zip: z.string().optional(), state: z.string().optional() }),
  geographies: z.record(z.string(), geographyLayerSchema).optional(),
});
export type CensusAddressMatch = z.infer<typeof censusAddressMatchSchema>;

export const censusGeocoderResponseSchema = z.looseObject({
  result: z.looseObject({ addressMatches: z.array(censusAddressMatchSchema) }),
});
