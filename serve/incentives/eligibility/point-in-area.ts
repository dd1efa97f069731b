import type { Polygon } from '../../../lib/geojson-polygons.ts';

/** Even-odd ray casting: whether the point is inside the ring (a point exactly on an edge may go either way). */
function ringContains(ring: readonly [number, number][], lon: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether a point lies inside an area: inside some polygon's outer ring and none of its holes. */
export function areaContains(polygons: readonly Polygon[], lon: number, lat: number): boolean {
  return polygons.some(
    ([outer, ...holes]) =>
      outer !== undefined &&
      ringContains(outer, lon, lat) &&
      !holes.some((hole) => ringContains(hole, lon, lat)),
  );
}
