import "leaflet/dist/leaflet.css";
import "@geoman-io/leaflet-geoman-free";
import "@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css";
import L from "leaflet";
import { useEffect, useRef } from "react";
import { AttributionControl, CircleMarker, GeoJSON, MapContainer, Rectangle, Tooltip, useMap } from "react-leaflet";
import type { Polygon } from "geojson";
import type { Id } from "@convex/_generated/dataModel";
import { NoStreetsNotice } from "@/lib/map/NoStreetsNotice";
import { PmtilesBasemap } from "@/lib/map/PmtilesBasemap";
import { RasterTiles } from "@/lib/map/RasterTiles";
import { prewarmStreetTiles, StreetsLayer } from "@/lib/map/StreetsLayer";
import type { OrgMap } from "@/lib/map/useOrgMap";
import { ROUTES } from "@/lib/routes";
import type { Bounds, DoorsView, TurfRow } from "../hooks/useWalkLists";

// the street tiles worker starts loading with this module, before the map's data arrives
prewarmStreetTiles();

/** What the map is drawing: nothing, a turf's outline (polygon or rectangle), or a split line or area. */
export type DrawMode = "idle" | "polygon" | "rectangle" | "splitLine" | "splitArea";
/** [lng, lat] pairs, as the server takes them. */
export type Ring = number[][];

const REDUCED_MOTION =
  typeof window !== "undefined" &&
  typeof window.matchMedia === "function" &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const SHAPES: Record<Exclude<DrawMode, "idle">, "Polygon" | "Rectangle" | "Line"> = {
  polygon: "Polygon",
  rectangle: "Rectangle",
  splitLine: "Line",
  splitArea: "Polygon",
};

function ringOf(layer: L.Layer): Ring {
  const raw = (layer as L.Polyline).getLatLngs() as L.LatLng[] | L.LatLng[][];
  const pts = (Array.isArray(raw[0]) ? raw[0] : raw) as L.LatLng[];
  return pts.map((p) => [p.lng, p.lat]);
}

/** Geoman drawing: reports the shape while it is drawn (corners and the cursor) and once it is finished. */
function Drawer(props: { mode: DrawMode; onDrawing(ring: Ring | null): void; onDrawn(ring: Ring): void }) {
  const map = useMap();
  const cb = useRef(props);
  cb.current = props;
  const { mode } = props;
  useEffect(() => {
    if (mode === "idle") return;
    const shape = SHAPES[mode];
    let working: L.Layer | null = null;
    const onStart = (e: { workingLayer: L.Layer }) => {
      working = e.workingLayer;
    };
    const onMove = (e: L.LeafletMouseEvent) => {
      // after geoman's own handler of this move has resized the shape being drawn
      setTimeout(() => {
        if (!working) return;
        const ring = ringOf(working);
        if (shape === "Polygon" && ring.length >= 2) ring.push([e.latlng.lng, e.latlng.lat]);
        cb.current.onDrawing(ring.length >= 3 ? ring : null);
      }, 0);
    };
    const onVertex = () => {
      if (working && shape === "Polygon") cb.current.onDrawing(ringOf(working).length >= 3 ? ringOf(working) : null);
    };
    const onCreate = (e: { layer: L.Layer }) => {
      const ring = ringOf(e.layer);
      map.removeLayer(e.layer);
      working = null;
      cb.current.onDrawn(ring);
    };
    map.on("pm:drawstart", onStart as unknown as L.LeafletEventHandlerFn);
    map.on("pm:vertexadded" as never, onVertex);
    map.on("mousemove", onMove);
    map.on("pm:create", onCreate as unknown as L.LeafletEventHandlerFn);
    map.pm.enableDraw(shape, {
      snappable: false,
      continueDrawing: false,
      ...(shape === "Line" ? { finishOn: "dblclick" as const } : {}),
      templineStyle: { color: "#7c3aed" },
      hintlineStyle: { color: "#7c3aed", dashArray: [5, 5] },
      pathOptions: { color: "#7c3aed" },
    });
    return () => {
      map.off("pm:drawstart", onStart as unknown as L.LeafletEventHandlerFn);
      map.off("pm:vertexadded" as never, onVertex);
      map.off("mousemove", onMove);
      map.off("pm:create", onCreate as unknown as L.LeafletEventHandlerFn);
      map.pm.disableDraw();
      cb.current.onDrawing(null);
    };
  }, [map, mode]);
  return null;
}

function BoundsWatcher({ onBounds }: { onBounds(b: Bounds): void }) {
  const map = useMap();
  useEffect(() => {
    const report = () => {
      const b = map.getBounds().pad(0.2);
      onBounds({ west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() });
    };
    report();
    map.on("moveend", report);
    return () => {
      map.off("moveend", report);
    };
  }, [map, onBounds]);
  return null;
}

/** Moves the map once to where the organisation's doors are (and again to a chosen turf). */
function Focus({ center, fit }: { center: { lat: number; lng: number } | null; fit: number[] | null }) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (center && !done.current) {
      done.current = true;
      map.setView([center.lat, center.lng], 16);
    }
  }, [map, center]);
  useEffect(() => {
    if (fit && fit.length === 4)
      map.fitBounds(
        [
          [fit[1], fit[0]],
          [fit[3], fit[2]],
        ],
        { padding: [30, 30], maxZoom: 18 },
      );
  }, [map, fit]);
  return null;
}

type Props = {
  orgMap: OrgMap;
  center: { lat: number; lng: number } | null;
  doors: DoorsView | undefined;
  turfs: TurfRow[];
  selected: Id<"turfs"> | null;
  selectedDoors: { lat: number; lng: number; held: boolean }[] | undefined;
  drawn: Ring | null;
  mode: DrawMode;
  fit: number[] | null;
  onBounds(b: Bounds): void;
  onDrawing(ring: Ring | null): void;
  onDrawn(ring: Ring): void;
  onSelect(id: Id<"turfs">): void;
};

/** The turf-cutting map: streets, doors (points or per-cell counts), turfs, and the shape being drawn. */
export function TurfMap(p: Props) {
  const base = p.orgMap.basemapUrl ? "pmtiles" : p.orgMap.tiles ? "raster" : "none";
  return (
    <div data-testid="turf.map" style={{ position: "relative" }}>
      <MapContainer
        center={[39.8, -98.6]}
        zoom={4}
        minZoom={3}
        maxZoom={19}
        preferCanvas
        style={{ height: "min(600px, 70vh)", width: "100%", background: "#eef2f5", borderRadius: "var(--radius-3)" }}
        attributionControl={false}
        fadeAnimation={!REDUCED_MOTION}
        zoomAnimation={!REDUCED_MOTION}
        markerZoomAnimation={!REDUCED_MOTION}
      >
        {base === "pmtiles" && <PmtilesBasemap url={p.orgMap.basemapUrl!} onError={() => {}} />}
        {base === "raster" && (
          <RasterTiles url={p.orgMap.tiles!.url} attribution={p.orgMap.tiles!.attribution} onError={() => {}} />
        )}
        {base !== "none" && <AttributionControl />}
        {p.orgMap.streets && <StreetsLayer source={p.orgMap.streets} />}
        <BoundsWatcher onBounds={p.onBounds} />
        <Focus center={p.center} fit={p.fit} />
        <Drawer mode={p.mode} onDrawing={p.onDrawing} onDrawn={p.onDrawn} />
        {p.doors?.points?.map((d, i) => (
          <CircleMarker
            key={i}
            center={[d.lat, d.lng]}
            radius={3}
            interactive={false}
            pathOptions={{ color: "#1d4ed8", weight: 1, fillColor: "#3b82f6", fillOpacity: 0.8 }}
          />
        ))}
        {p.doors?.cells.map((c, i) => (
          <CircleMarker
            key={`c${i}`}
            center={[c.lat, c.lng]}
            radius={Math.min(24, 6 + Math.log10(c.doors) * 5)}
            pathOptions={{ color: "#1d4ed8", weight: 1, fillColor: "#60a5fa", fillOpacity: 0.5 }}
          >
            <Tooltip>{`${c.doors.toLocaleString("en-US")} doors`}</Tooltip>
          </CircleMarker>
        ))}
        {p.turfs.map((t) => {
          const active = t.id === p.selected;
          const style = { color: active ? "#ea580c" : "#16a34a", weight: active ? 3 : 2, fillOpacity: 0.06 };
          const select = { click: () => p.onSelect(t.id) };
          if (t.area) return <GeoJSON key={t.id} data={JSON.parse(t.area)} style={style} eventHandlers={select} />;
          if (t.bbox.length !== 4) return null;
          return (
            <Rectangle
              key={t.id}
              bounds={[
                [t.bbox[1], t.bbox[0]],
                [t.bbox[3], t.bbox[2]],
              ]}
              pathOptions={{ ...style, dashArray: "4 4" }}
              eventHandlers={select}
            />
          );
        })}
        {p.selectedDoors?.map((d, i) => (
          <CircleMarker
            key={`s${i}`}
            center={[d.lat, d.lng]}
            radius={4}
            interactive={false}
            pathOptions={{ color: "#9a3412", weight: 1, fillColor: d.held ? "#9ca3af" : "#f97316", fillOpacity: 0.9 }}
          />
        ))}
        {p.drawn && (
          <GeoJSON
            key={JSON.stringify(p.drawn)}
            data={{ type: "Polygon", coordinates: [[...p.drawn, p.drawn[0]]] } as Polygon}
            style={{ color: "#7c3aed", weight: 2, fillOpacity: 0.1 }}
            interactive={false}
          />
        )}
      </MapContainer>
      {p.orgMap.streets === null && (
        <div style={{ position: "absolute", left: 10, bottom: 26, zIndex: 1000, maxWidth: "calc(100% - 20px)" }}>
          <NoStreetsNotice href={ROUTES.mapData} testId="turf.noStreets" />
        </div>
      )}
    </div>
  );
}
