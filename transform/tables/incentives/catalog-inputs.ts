import type {
  AuthorityRecord,
  DataPartnerRecord,
  GeoGroupRecord,
  GeographyRecord,
  IncentiveRecord,
  ProgramRecord,
  RelationshipsRecord,
} from '../../../schemas/incentives/records.ts';

/**
 * The incentive catalog's records, as both the serving-states build and its audits read them: a file of
 * its own, below both, so neither imports the other for it.
 */
export interface CatalogInputs {
  incentives: IncentiveRecord[];
  programs: ProgramRecord[];
  authorities: AuthorityRecord[];
  relationships: RelationshipsRecord[];
  geoGroups: GeoGroupRecord[];
  dataPartners: DataPartnerRecord[];
  geographies: GeographyRecord[];
}
