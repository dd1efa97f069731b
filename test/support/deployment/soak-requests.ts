/*
 * What both soaks send and how they read the answers: the replicas soak (replicas-soak.ts, in the runner's
 * process) and the multi-host soak (multi-host-soak-control.ts, the program on its lab's client host). The
 * second snapshot of a soak changes one incentive's cap, so a calculator body tells which snapshot answered.
 */

/** The incentive whose cap the second snapshot's source changes, so its answers differ from the first's. */
export const CHANGED_INCENTIVE = 'RI-HEAR-PANEL';
export const FIRST_CAP = 4000;
export const SECOND_CAP = 4500;

/**
 * The `n`th request of a soak's load to `base`: calculator requests with a new household income each, one REM
 * address and one health-impacts request in every ten.
 */
export function soakRequest(base: string, headers: Record<string, string>, n: number): Promise<Response> {
  if (n % 10 === 7)
    return fetch(
      `${base}/api/v1/rem/address?address=${encodeURIComponent('1 Main St, Providence, RI 02903')}` +
        '&upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas',
      { headers },
    );
  if (n % 10 === 9)
    return fetch(`${base}/api/v2/etools/health-impacts`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        metrics: ['avoided_premature_mortality_incidence'],
        upgrade: ['combination__all_electric__hvac_seer24_hspf13__weatherization'],
        state_fips: ['44'],
      }),
    });
  // Incomes 20,000–69,999 (a new one per request for 50,000 requests): under 80% of Providence's AMI for 3
  // people, so every answer lists the incentive whose cap tells the two snapshots apart.
  const income = 20_000 + ((n * 7919) % 50_000);
  return fetch(
    `${base}/api/v1/calculator?zip=02903&owner_status=homeowner&household_income=${income}` +
      '&household_size=3&tax_filing=single',
    { headers },
  );
}

/** The changed incentive's cap in a calculator answer's body (undefined: the answer does not list it). */
export function changedCap(body: string): number | undefined {
  const { incentives } = JSON.parse(body) as { incentives: { id: string; amount: { maximum?: number } }[] };
  return incentives.find((i) => i.id === CHANGED_INCENTIVE)?.amount.maximum;
}

/** The `q` quantile of ascending latencies (0 when there are none). */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
