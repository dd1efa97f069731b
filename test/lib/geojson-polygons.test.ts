import { describe, expect, it } from 'vitest';
import { polygonsOf } from '../../lib/geojson-polygons.ts';

const ring = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 0],
];

describe('polygonsOf', () => {
  it('flattens feature collections, features, geometry collections and multi-polygons', () => {
    const geojson = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] } },
        { type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[ring], [ring, ring]] } },
        {
          type: 'Feature',
          geometry: {
            type: 'GeometryCollection',
            geometries: [
              { type: 'Point', coordinates: [0, 0] },
              { type: 'Polygon', coordinates: [ring] },
            ],
          },
        },
      ],
    };
    expect(polygonsOf(geojson)).toEqual([[ring], [ring], [ring, ring], [ring]]);
  });

  it('gives nothing for values without areas', () => {
    expect(polygonsOf(null)).toEqual([]);
    expect(
      polygonsOf({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      }),
    ).toEqual([]);
  });
});
