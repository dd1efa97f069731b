/**
 * The date the service treats as today, as YYYY-MM-DD: AS_OF_DATE when set, else the current date in
 * America/New_York (the reference service's clock, so an incentive expires at the same moment).
 */
export function asOfDate(configured: string | undefined, now: Date = new Date()): string {
  if (configured) return configured;
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(now);
}
