import { describe, expect, it } from 'vitest';
import { areaContains } from '../../serve/incentives/eligibility/point-in-area.ts';
import type { Polygon } from '../../transform/tables/incentives/geojson-polygons.ts';

// A 0.1° square with a 0.02° square hole, and a separate triangle.
const squareWithHole: Polygon = [
  [
    [-71.7, 41.9],
    [-71.6, 41.9],
    [-71.6, 42.0],
    [-71.7, 42.0],
    [-71.7, 41.9],
  ],
  [
    [-71.63, 41.97],
    [-71.61, 41.97],
    [-71.61, 41.99],
    [-71.63, 41.99],
    [-71.63, 41.97],
  ],
];
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
