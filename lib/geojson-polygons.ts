/** A polygon as GeoJSON writes it: an outer ring, then holes; each ring a list of [longitude, latitude]. */
export type Polygon = [number, number][][];

/**
 * Every polygon of a GeoJSON value (FeatureCollection, Feature, GeometryCollection, MultiPolygon or
 * Polygon), flattened; other geometry types (points, lines) have no area and are skipped.
 */
export function polygonsOf(geojson: unknown): Polygon[] {
  if (geojson === null || typeof geojson !== 'object') return [];
  const value = geojson as {
    type?: string;
    features?: unknown[];
    geometry?: unknown;
    geometries?: unknown[];
    coordinates?: unknown;
  };
  switch (value.type) {
    case 'FeatureCollection':
      return (value.features ?? []).flatMap(polygonsOf);
    case 'Feature':
      return polygonsOf(value.geometry);
    case 'GeometryCollection':
      return (value.geometries ?? []).flatMap(polygonsOf);
    case 'MultiPolygon':
      return value.coordinates as Polygon[];
    case 'Polygon':
      return [value.coordinates as Polygon];
    default:
      return [];
  }
}

/**
 * The polygons of a geography's GeoJSON text, or null when the text is not JSON or holds no polygon: the
 * catalog then places no address in that area (it falls back to the ZIP's overlaps), and its audit says so.
 */
export function polygonsOfText(geojson: string): Polygon[] | null {
  try {
    const polygons = polygonsOf(JSON.parse(geojson));
    return polygons.length > 0 ? polygons : null;
  } catch {
    return null;
  }
}
