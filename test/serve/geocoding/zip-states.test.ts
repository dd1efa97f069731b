import { describe, expect, it } from 'vitest';
import { zipStateConflict, zipStatesOf } from '../../../serve/geocoding/zip-states.ts';

// Rows as the zip-counties source (GeoNames' US.txt) gives them.
const zipStates = zipStatesOf([
  { zip: '02903', state: 'RI' },
  { zip: '79401', state: 'TX' },
  { zip: '20001', state: 'DC' },
]);
const stateOfZip = (zip: string) => zipStates.get(zip);

describe('zipStatesOf', () => {
  it('maps each ZIP to its state', () => {
    expect([...zipStates]).toEqual([
      ['02903', 'RI'],
      ['79401', 'TX'],
      ['20001', 'DC'],
    ]);
  });
});

describe('zipStateConflict', () => {
  it('names the ZIP, the state it is in and the state the address names when they differ', () => {
    expect(zipStateConflict({ zip: '02903', state: 'TX' }, stateOfZip)).toEqual({
      zip: '02903',
      zipState: 'RI',
      state: 'TX',
    });
    expect(zipStateConflict({ zip: '79401', state: 'RI' }, stateOfZip)).toEqual({
      zip: '79401',
      zipState: 'TX',
      state: 'RI',
    });
  });

  it('finds nothing wrong with a ZIP in the state named', () => {
    expect(zipStateConflict({ zip: '02903', state: 'RI' }, stateOfZip)).toBeNull();
    expect(zipStateConflict({ zip: '20001', state: 'DC' }, stateOfZip)).toBeNull();
  });

  it('leaves a ZIP the data does not know to the route (it may not exist; it contradicts nothing)', () => {
    expect(zipStateConflict({ zip: '99999', state: 'TX' }, stateOfZip)).toBeNull();
  });
});
