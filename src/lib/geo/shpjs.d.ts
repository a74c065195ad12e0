/** Types for shpjs 6 (it publishes none): the parts the map-data reader uses. */
declare module "shpjs" {
  type ShapefileCollection = {
    type: "FeatureCollection";
    features: {
      type: "Feature";
      geometry: { type: string; coordinates?: unknown } | null;
      properties: Record<string, unknown> | null;
    }[];
    /** the .shp's path in the zip, without its extension */
    fileName?: string;
  };
  /** A zip (ArrayBuffer, typed array, Buffer) with one or more shapefiles → one collection each (one: not an array). */
  export default function shp(
    input: ArrayBuffer | ArrayBufferView,
  ): Promise<ShapefileCollection | ShapefileCollection[]>;
}
