import { describe, expect, it } from 'vitest';
import { areaContains } from '../../../../serve/incentives/eligibility/point-in-area.ts';
import type { Polygon } from '../../../../lib/geojson-polygons.ts';
import { glocesterPolygon } from '../../../support/incentives/fixture-records.ts';

// The fixture town's square with its square hole, and a separate triangle.
const squareWithHole: Polygon = glocesterPolygon;
const triangle: Polygon = [
  [
    [-71.5, 41.9],
    [-71.4, 41.9],
    [-71.45, 42.0],
    [-71.5, 41.9],
  ],
];

describe('areaContains', () => {
  it('is true inside an outer ring and false in a hole or outside', () => {
    expect(areaContains([squareWithHole], -71.65, 41.95)).toBe(true);
    expect(areaContains([squareWithHole], -71.62, 41.98)).toBe(false);
    expect(areaContains([squareWithHole], -71.65, 41.85)).toBe(false);
    expect(areaContains([squareWithHole], -71.55, 41.95)).toBe(false);
  });

  it('checks every polygon of a multi-polygon area', () => {
    expect(areaContains([squareWithHole, triangle], -71.45, 41.95)).toBe(true);
    expect(areaContains([squareWithHole, triangle], -71.41, 41.99)).toBe(false);
    expect(areaContains([], -71.65, 41.95)).toBe(false);
  });
});
