import "leaflet/dist/leaflet.css";
import { useEffect, useRef } from "react";
import { AttributionControl, CircleMarker, GeoJSON, MapContainer, Tooltip, useMap } from "react-leaflet";
import { NoStreetsNotice } from "@/lib/map/NoStreetsNotice";
import { PmtilesBasemap } from "@/lib/map/PmtilesBasemap";
import { RasterTiles } from "@/lib/map/RasterTiles";
import { prewarmStreetTiles, StreetsLayer } from "@/lib/map/StreetsLayer";
import type { OrgMap } from "@/lib/map/useOrgMap";
import { ROUTES } from "@/lib/routes";
import type { ListMap } from "../hooks/useCanvassDashboard";
import { doorStyle, doorTooltip, type DoorPoint } from "../utils/canvassDisplay";

// the street tiles worker starts loading with this module, before the map's data arrives
prewarmStreetTiles();

const REDUCED_MOTION =
  typeof window !== "undefined" &&
  typeof window.matchMedia === "function" &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** [west, south, east, north] of the points, or null without any. */
function boxOf(points: { lat: number; lng: number }[]): number[] | null {
  if (points.length === 0) return null;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    w = Math.min(w, p.lng);
    e = Math.max(e, p.lng);
    s = Math.min(s, p.lat);
    n = Math.max(n, p.lat);
  }
  return [w, s, e, n];
}

/** Fits the map to the list's doors once (results arriving never move it under the organiser's hand). */
function FitOnce({ box }: { box: number[] | null }) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (!box || done.current) return;
    done.current = true;
    map.fitBounds(
      [
        [box[1], box[0]],
        [box[3], box[2]],
      ],
      { padding: [30, 30], maxZoom: 18 },
    );
  }, [map, box]);
  return null;
}

type CanvassDashboardMapProps = {
  orgMap: OrgMap;
  turfArea: ListMap["turfArea"];
  doors: DoorPoint[];
};

/**
 * The list's turf with its doors coloured by their last result as results arrive (white: not
 * knocked yet), a ring around doors a data-quality flag names; each door's tooltip says its address,
 * result and attempts. Streets and basemap as on the turf map.
 */
export function CanvassDashboardMap({ orgMap, turfArea, doors }: CanvassDashboardMapProps) {
  const base = orgMap.basemapUrl ? "pmtiles" : orgMap.tiles ? "raster" : "none";
  const box = boxOf(doors);
  return (
    <div data-testid="canvass-map" style={{ position: "relative" }}>
      <MapContainer
        center={[39.8, -98.6]}
        zoom={4}
        minZoom={3}
        maxZoom={19}
        preferCanvas
        style={{ height: "min(520px, 60vh)", width: "100%", background: "#eef2f5", borderRadius: "var(--radius-3)" }}
        attributionControl={false}
        fadeAnimation={!REDUCED_MOTION}
        zoomAnimation={!REDUCED_MOTION}
        markerZoomAnimation={!REDUCED_MOTION}
      >
        {base === "pmtiles" && <PmtilesBasemap url={orgMap.basemapUrl!} onError={() => {}} />}
        {base === "raster" && (
          <RasterTiles url={orgMap.tiles!.url} attribution={orgMap.tiles!.attribution} onError={() => {}} />
        )}
        {base !== "none" && <AttributionControl />}
        {orgMap.streets && <StreetsLayer source={orgMap.streets} />}
        <FitOnce box={box} />
        {turfArea && (
          <GeoJSON
            key={turfArea}
            data={JSON.parse(turfArea)}
            style={{ color: "#16a34a", weight: 2, fillOpacity: 0.04 }}
            interactive={false}
          />
        )}
        {doors.map((d) => {
          const { radius, ...pathOptions } = doorStyle(d);
          return (
            <CircleMarker key={d.id} center={[d.lat, d.lng]} radius={radius} pathOptions={pathOptions}>
              <Tooltip>{doorTooltip(d)}</Tooltip>
            </CircleMarker>
          );
        })}
      </MapContainer>
      {orgMap.streets === null && (
        <div style={{ position: "absolute", left: 10, bottom: 26, zIndex: 1000, maxWidth: "calc(100% - 20px)" }}>
          <NoStreetsNotice href={ROUTES.mapData} testId="canvass-map.noStreets" />
        </div>
      )}
    </div>
  );
}
