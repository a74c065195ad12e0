import L from "leaflet";
import { useEffect, useMemo, useState } from "react";
import { GeoJSON, Marker, Pane, useMap, useMapEvents } from "react-leaflet";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { FeatureCollection, MultiLineString } from "geojson";
import { STREETS_PAINTED } from "@/lib/map/StreetsLayer";
import type { Place } from "../utils/places.worker";

type Label = { name: string; lat: number; lng: number; weight: number; kind: "county" | "place" };
/** `countyLabels`: computed the first time a view asks for them (a county's box each: ~100 ms, not needed at street zoom). */
type Atlas = { land: FeatureCollection; states: MultiLineString; counties: MultiLineString; countyLabels(): Label[] };

/** County names between these zooms; town and city names from PLACE_ZOOM on. */
const COUNTY_ZOOM = 7;
const PLACE_ZOOM = 9;
/** From this zoom the organisation's streets are the view (StreetsLayer draws every class). */
const STREET_ZOOM = 13;
/** How long the atlas waits for the streets' first paint at most (ms). */
const ATLAS_WAIT_MS = 1_500;
/** Labels closer than this on screen give way to the bigger place (px). */
const LABEL_SPACING = 90;
const MAX_LABELS = 60;

let atlasPromise: Promise<Atlas> | null = null;
let placesPromise: Promise<Label[]> | null = null;

/** Towns and cities, computed in a worker (utils/places.worker.ts) once per page load. */
function loadPlaces(): Promise<Label[]> {
  placesPromise ??= new Promise<Label[]>((resolve, reject) => {
    const worker = new Worker(new URL("../utils/places.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (e: MessageEvent<Place[]>) => {
      resolve(e.data.map((p) => ({ ...p, kind: "place" as const })));
      worker.terminate();
    };
    worker.onerror = (e) => {
      placesPromise = null;
      reject(new Error(e.message));
    };
  });
  return placesPromise;
}

let atlasModule: Promise<{ default: unknown }> | null = null;
const atlasFile = () => (atlasModule ??= import("us-atlas/counties-10m.json"));

/** us-atlas (Census Bureau TopoJSON, packaged): land, state and county lines, county names. */
function loadAtlas(): Promise<Atlas> {
  atlasPromise ??= atlasFile().then((m) => {
    const topo = (m.default ?? m) as unknown as Topology<{
      counties: GeometryCollection<{ name: string }>;
      states: GeometryCollection<{ name: string }>;
      nation: GeometryCollection;
    }>;
    const land = feature(topo, topo.objects.nation) as unknown as FeatureCollection;
    const states = mesh(topo, topo.objects.states, (a, b) => a !== b);
    const counties = mesh(
      topo,
      topo.objects.counties,
      (a, b) => a !== b && String(a.id).slice(0, 2) === String(b.id).slice(0, 2),
    );
    let labels: Label[] | null = null;
    const countyLabels = () => {
      if (labels) return labels;
      const stateNames = new Map(topo.objects.states.geometries.map((g) => [String(g.id), nameOf(g.properties)]));
      const countyFeatures = feature(topo, topo.objects.counties) as unknown as FeatureCollection;
      labels = [];
      for (const f of countyFeatures.features) {
        const b = L.geoJSON(f).getBounds();
        if (!b.isValid()) continue;
        const c = b.getCenter();
        const state = stateNames.get(String(f.id).slice(0, 2));
        labels.push({
          name: `${nameOf(f.properties)} County${state ? `, ${state}` : ""}`,
          lat: c.lat,
          lng: c.lng,
          weight: 0,
          kind: "county",
        });
      }
      return labels;
    };
    return { land, states, counties, countyLabels };
  });
  return atlasPromise;
}

/**
 * The offline basemap: no tile server is reachable, so the map draws the packaged U.S. atlas on a
 * canvas (land, state and county boundaries, county names when zoomed in).
 */
export function Basemap({ streets }: { streets: "loading" | "none" | "some" }) {
  const [atlas, setAtlas] = useState<Atlas | null>(null);
  const [places, setPlaces] = useState<Label[]>([]);
  const map = useMap();
  const [view, setView] = useState(() => ({ zoom: map.getZoom(), bounds: map.getBounds() }));
  useMapEvents({ moveend: () => setView({ zoom: map.getZoom(), bounds: map.getBounds() }) });
  const renderer = useMemo(() => L.canvas({ padding: 0.5, pane: "basemap" }), []);
  useEffect(() => {
    // the file loads at once; drawing it waits to know whether the organisation has streets
    void atlasFile().catch(() => {});
    if (streets === "loading") return;
    let live = true;
    let started = false;
    const start = () => {
      if (started || !live) return;
      started = true;
      void loadAtlas()
        .then((a) => live && setAtlas(a))
        .then(() => loadPlaces())
        .then((p) => live && setPlaces(p))
        .catch(() => {});
    };
    // at street zoom over the organisation's streets, the streets are what the view needs first:
    // the atlas (~100 ms of the page's thread) waits for their first paint, or a moment at most
    const deferred = streets === "some" && map.getZoom() >= STREET_ZOOM;
    const timer = deferred ? setTimeout(start, ATLAS_WAIT_MS) : null;
    if (deferred) map.once(STREETS_PAINTED, start);
    else start();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      map.off(STREETS_PAINTED, start);
    };
  }, [streets, map]);
  const labels = useMemo(() => {
    if (!atlas || view.zoom < COUNTY_ZOOM) return [];
    const candidates = view.zoom >= PLACE_ZOOM ? places : atlas.countyLabels();
    const shown: { label: Label; x: number; y: number }[] = [];
    for (const l of candidates) {
      if (!view.bounds.contains([l.lat, l.lng])) continue;
      const pt = map.latLngToContainerPoint([l.lat, l.lng]);
      if (shown.some((o) => Math.abs(o.x - pt.x) < LABEL_SPACING && Math.abs(o.y - pt.y) < LABEL_SPACING / 3)) continue;
      shown.push({ label: l, x: pt.x, y: pt.y });
      if (shown.length >= MAX_LABELS) break;
    }
    return shown.map((o) => o.label);
  }, [atlas, places, view, map]);
  if (!atlas) return null;
  return (
    <>
      {/* the atlas under everything (tiles' level), names above it and under the signs (overlay pane: 400) */}
      <Pane name="basemap" style={{ zIndex: 200 }}>
        <GeoJSON
          data={atlas.land}
          style={{ renderer, color: "#d6d3c4", weight: 0.5, fillColor: "#f4f1e8", fillOpacity: 1 } as L.PathOptions}
          interactive={false}
        />
        <GeoJSON
          data={atlas.counties}
          style={{ renderer, color: "#c9c4b5", weight: 0.6, dashArray: "3 3" } as L.PathOptions}
          interactive={false}
        />
        <GeoJSON
          data={atlas.states}
          style={{ renderer, color: "#8f8a7a", weight: 1.4 } as L.PathOptions}
          interactive={false}
        />
      </Pane>
      <Pane name="basemap-labels" style={{ zIndex: 390, pointerEvents: "none" }}>
        {labels.map((l) => (
          <Marker
            key={`${l.name}-${l.lat}`}
            position={[l.lat, l.lng]}
            interactive={false}
            keyboard={false}
            icon={L.divIcon({
              className: `basemap-label basemap-label--${l.kind}`,
              html: `<span>${escapeHtml(l.name)}</span>`,
              iconSize: [0, 0],
            })}
          />
        ))}
      </Pane>
    </>
  );
}

function nameOf(props: unknown): string {
  return typeof props === "object" && props !== null && "name" in props ? String(props.name) : "";
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
