import { STATES_AND_TERRITORIES, type StateCode } from '../../../schemas/incentives/enums.ts';
import { LAUNCHED_STATES } from '../../../schemas/incentives/launched-states.ts';

export type StateStatus = 'launched' | 'beta' | 'none';

/**
 * The rollout status of every state and territory, in the reference's order, as the loaded data stands:
 * `launched` for a state the reference launched that has incentives in the snapshot (one without data
 * has nothing to serve, so it is `none`); `beta` for a state that is not launched but has incentive data,
 * exactly the states include_beta_states adds. (The reference never says `beta`; with `betaStatus: false`
 * and the national data, where every launched state has incentives, this is its answer exactly.)
 */
export function stateStatuses(
  statesWithIncentives: ReadonlySet<string>,
  options: { betaStatus: boolean },
): Record<StateCode, { status: StateStatus }> {
  return Object.fromEntries(
    STATES_AND_TERRITORIES.map((state) => [
      state,
      {
        status: !statesWithIncentives.has(state)
          ? 'none'
          : LAUNCHED_STATES.has(state)
            ? 'launched'
            : options.betaStatus
              ? 'beta'
              : 'none',
      },
    ]),
  ) as Record<StateCode, { status: StateStatus }>;
}

/** Whether a state's own incentives are candidates: launched, or with data when beta states are asked for. */
export const stateIncentivesIncluded = (
  state: string,
  includeBeta: boolean,
  hasIncentives: boolean,
): boolean => LAUNCHED_STATES.has(state) || (includeBeta && hasIncentives);
