import { describe, expect, it } from 'vitest';
import { holdReport } from '../../../data-lake/audit/hold-report.ts';

describe('holdReport', () => {
  it('says in one paragraph what tripped, with examples, and how to review and publish', () => {
    expect(
      holdReport({
        id: '20261127T171904547Z-b590f499',
        hold: {
          against: '20261127T171845641Z-61aa07ed',
          findings: [
            {
              table: 'incentives',
              check: 'partition-emptied',
              severity: 'hold',
              message: '5 partitions that had rows have none',
              count: 5,
              examples: [
                'CA: 147 → 0 rows',
                'TX: 81 → 0 rows',
                'VT: 101 → 0 rows',
                'NM: 266 → 0 rows',
                'RI: 41 → 0 rows',
              ],
            },
            {
              table: 'incentives',
              check: 'null-share-jump',
              severity: 'hold',
              message: 'column more_info_url is null in 100 % of rows, against 12 %',
            },
          ],
        },
      }),
    ).toBe(
      'Snapshot 20261127T171904547Z-b590f499 was written but held for review, not published: compared with the ' +
        'published snapshot 20261127T171845641Z-61aa07ed, incentives: 5 partitions that had rows have none ' +
        '(CA: 147 → 0 rows; TX: 81 → 0 rows; VT: 101 → 0 rows; 2 more); incentives: column more_info_url is null ' +
        'in 100 % of rows, against 12 %. What is served is unchanged. Review it with `npm run lake -- diff ' +
        '20261127T171904547Z-b590f499`; if the change is real, publish it with `npm run lake -- publish ' +
        '20261127T171904547Z-b590f499 --reason "<why>"`; if not, fix the source and run the pipeline again.',
    );
  });
});
