import { describe, expect, it } from 'vitest';
import { mapInSlices } from '../../lib/time-slices.ts';

/** Maps three ZIPs while another callback waits for the event loop, recording the order things ran in. */
async function mapBesideOtherWork(sliceMs: number) {
  const ran: string[] = [];
  setImmediate(() => ran.push('a request'));
  const mapped = await mapInSlices(
    ['02116', '02814', '78701'],
    (zip) => {
      ran.push(`prepare ${zip}`);
      return zip.slice(0, 3);
    },
    sliceMs,
  );
  return { mapped, ran };
}

describe('mapInSlices', () => {
  it('maps every item in order', async () => {
    expect((await mapBesideOtherWork(5)).mapped).toEqual(['021', '028', '787']);
  });

  it('lets waiting callbacks run once a turn has spent its slice', async () => {
    // A slice of 0 ms is spent after every item.
    expect(await mapBesideOtherWork(0)).toEqual({
      mapped: ['021', '028', '787'],
      ran: ['prepare 02116', 'a request', 'prepare 02814', 'prepare 78701'],
    });
  });

  it('keeps the turn while the slice lasts', async () => {
    const { ran } = await mapBesideOtherWork(60_000);
    expect(ran).toEqual(['prepare 02116', 'prepare 02814', 'prepare 78701']);
  });
});
