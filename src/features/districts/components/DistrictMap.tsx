import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { useEffect, useRef, useState } from "react";
import { AttributionControl, MapContainer, useMap } from "react-leaflet";
import type { Geometry } from "geojson";
import type { Id } from "@convex/_generated/dataModel";
import { NoStreetsNotice } from "@/lib/map/NoStreetsNotice";
import { PmtilesBasemap } from "@/lib/map/PmtilesBasemap";
import { RasterTiles } from "@/lib/map/RasterTiles";
import { prewarmStreetTiles, StreetsLayer } from "@/lib/map/StreetsLayer";
import type { OrgMap } from "@/lib/map/useOrgMap";
import { ROUTES } from "@/lib/routes";
import type { DistrictOutline } from "../hooks/useDistricts";

// the street tiles worker starts loading with this module, before the map's data arrives
prewarmStreetTiles();

const REDUCED_MOTION =
  typeof window !== "undefined" &&
  typeof window.matchMedia === "function" &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Springfield, IL: where the map opens before any outline is known. */
const START: [number, number] = [39.78, -89.65];

type Shaded = { fill: string; name: string; value: string };

/** The outlines as one Leaflet layer (hundreds of polygons draw as one), restyled in place when the shading changes. */
function Outlines({
  outlines,
  shading,
  selectedId,
  onSelect,
}: {
  outlines: DistrictOutline[];
  shading: Map<Id<"districts">, Shaded>;
  selectedId: Id<"districts"> | null;
  onSelect(id: Id<"districts">): void;
}) {
  const map = useMap();
  const layer = useRef<L.GeoJSON | null>(null);
  const fitted = useRef(false);
  const select = useRef(onSelect);
  select.current = onSelect;
  // drawn again only when the set of outlines changes (a tally's change re-sends the same outlines)
  const current = useRef(outlines);
  current.current = outlines;
  const signature = outlines.map((o) => `${o.id}:${o.geometry.length}`).join(",");
  useEffect(() => {
    const features = current.current.map((o) => ({
      type: "Feature" as const,
      properties: { id: o.id },
      geometry: JSON.parse(o.geometry) as Geometry,
    }));
    const g = L.geoJSON({ type: "FeatureCollection", features } as GeoJSON.FeatureCollection, {
      onEachFeature: (f, l) => {
        l.on("click", () => select.current((f.properties as { id: Id<"districts"> }).id));
      },
    }).addTo(map);
    layer.current = g;
    if (!fitted.current && features.length > 0) {
      const b = g.getBounds();
      if (b.isValid()) map.fitBounds(b, { padding: [12, 12], animate: false });
      fitted.current = true;
    }
    return () => {
      g.remove();
      layer.current = null;
    };
  }, [map, signature]);
  useEffect(() => {
    layer.current?.eachLayer((l) => {
      const id = ((l as L.GeoJSON).feature as GeoJSON.Feature).properties!.id as Id<"districts">;
      const s = shading.get(id);
      const selected = id === selectedId;
      (l as L.Path).setStyle({
        color: selected ? "#b91c1c" : "#1f2937",
        weight: selected ? 3 : 1,
        fillColor: s?.fill ?? "#e5e7eb",
        fillOpacity: 0.6,
      });
      (l as L.Path).unbindTooltip();
      if (s) (l as L.Path).bindTooltip(`${s.name}: ${s.value}`, { sticky: true });
      if (selected) (l as L.Path).bringToFront();
    });
  }, [shading, selectedId, signature]);
  return null;
}

/**
 * The districts of the chosen kind over the organisation's streets (Map data: basemap, raster
 * tiles, streets layer), each filled by the chosen measure; a click opens the district.
 */
export function DistrictMap({
  outlines,
  shading,
  selectedId,
  onSelect,
  orgMap,
}: {
  outlines: DistrictOutline[];
  shading: Map<Id<"districts">, Shaded>;
  selectedId: Id<"districts"> | null;
  onSelect(id: Id<"districts">): void;
  orgMap: OrgMap;
}) {
  const [basemapFailed, setBasemapFailed] = useState(false);
  const [tilesFailed, setTilesFailed] = useState(false);
  const base = orgMap.basemapUrl && !basemapFailed ? "pmtiles" : orgMap.tiles && !tilesFailed ? "raster" : "none";
  return (
    <div data-testid="districts.map" style={{ position: "relative" }}>
      <MapContainer
        center={START}
        zoom={11}
        minZoom={3}
        maxZoom={19}
        style={{ height: "min(520px, 70vh)", width: "100%", background: "#f3f4f6", borderRadius: "var(--radius-3)" }}
        attributionControl={false}
        fadeAnimation={!REDUCED_MOTION}
        zoomAnimation={!REDUCED_MOTION}
        markerZoomAnimation={!REDUCED_MOTION}
      >
        {base === "pmtiles" && <PmtilesBasemap url={orgMap.basemapUrl!} onError={() => setBasemapFailed(true)} />}
        {base === "raster" && (
          <RasterTiles
            url={orgMap.tiles!.url}
            attribution={orgMap.tiles!.attribution}
            onError={() => setTilesFailed(true)}
          />
        )}
        {base !== "none" && <AttributionControl />}
        {orgMap.streets && <StreetsLayer source={orgMap.streets} />}
        <Outlines outlines={outlines} shading={shading} selectedId={selectedId} onSelect={onSelect} />
      </MapContainer>
      {orgMap.streets === null && (
        <div style={{ position: "absolute", left: 10, bottom: 26, zIndex: 1000, maxWidth: "calc(100% - 20px)" }}>
          <NoStreetsNotice href={ROUTES.mapData} testId="districts.noStreets" />
        </div>
      )}
    </div>
  );
}
