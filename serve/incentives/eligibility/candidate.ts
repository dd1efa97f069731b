import type { AuthorityType, Item, OwnerStatus, PaymentMethod } from '../../../schemas/incentives/enums.ts';
import type { Amount } from '../../../schemas/incentives/records.ts';

/**
 * An incentive prepared for evaluation at snapshot load: what the rules need, looked up once (its
 * program's authority geographies, its geo group, its last valid day).
 */
export interface Candidate {
  id: string;
  programId: string;
  authorityType: AuthorityType;
  /** The program's authority id; null for federal programs. */
  authority: string | null;
  /** Geographies the authority serves; null when there is nothing to check (federal). */
  authorityGeographies: ReadonlySet<number> | null;
  /** Geographies of the incentive's geo group; null when it has none. An unknown group is an empty set. */
  geoGroup: ReadonlySet<number> | null;
  items: readonly Item[];
  paymentMethods: readonly PaymentMethod[];
  ownerStatus: readonly OwnerStatus[];
  amount: Amount;
  lowIncome: string | null;
  /** Last day (YYYY-MM-DD) the incentive is valid; null when it has no end date. */
  lastDay: string | null;
}
