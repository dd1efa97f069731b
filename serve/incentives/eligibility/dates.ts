const pad = (n: number) => String(n).padStart(2, '0');
const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysInMonth = (year: number, month: number) =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** Month-day at which each half or quarter ends. */
const PERIOD_ENDS: Record<string, string> = {
  Q1: '03-31',
  Q2: '06-30',
  H1: '06-30',
  Q3: '09-30',
  Q4: '12-31',
  H2: '12-31',
};

/**
 * The last day (YYYY-MM-DD) an incentive date covers: a year ends Dec 31, a month on its last day (leap
 * years included), a half or quarter on its last day, and a full date is itself.
 */
export function lastDayOf(date: string): string {
  const year = Number(date.slice(0, 4));
  const rest = date.slice(4);
  if (rest === '') return `${year}-12-31`;
  const period = PERIOD_ENDS[rest];
  if (period) return `${year}-${period}`;
  if (rest.length === 3) {
    const month = Number(rest.slice(1));
    return `${year}-${pad(month)}-${pad(daysInMonth(year, month))}`;
  }
  return date;
}

/** Expired once today is after the end date's last day: an incentive is valid through that day. */
export const isExpired = (endDate: string, today: string): boolean => today > lastDayOf(endDate);
