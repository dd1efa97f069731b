/**
 * States whose incentives the reference service serves (its LAUNCHED_STATES at commit 16ad9bf4). Data
 * exists for others too; those are served only with include_beta_states=true. The pipeline's audits and
 * the API's eligibility both read it, so it lives below both.
 */
export const LAUNCHED_STATES: ReadonlySet<string> = new Set([
  'AK', 'AZ', 'CA', 'CO', 'CT', 'DC', 'DE', 'GA', 'HI', 'IA', 'IL', 'IN', 'MA', 'ME', 'MI', 'MN', 'MO',
  'NC', 'NH', 'NJ', 'NM', 'NV', 'NY', 'OH', 'OR', 'PA', 'RI', 'TX', 'UT', 'VA', 'VT', 'WI', 'WY',
]); // prettier-ignore
