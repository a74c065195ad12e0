import L from "leaflet";
import { useEffect, useMemo, useState } from "react";
import { GeoJSON, Marker, useMap, useMapEvents } from "react-leaflet";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { FeatureCollection, MultiLineString } from "geojson";

type Label = { name: string; lat: number; lng: number };
type Atlas = { land: FeatureCollection; states: MultiLineString; counties: MultiLineString; labels: Label[] };

/** County names appear from this zoom on (at most this many at once). */
const LABEL_ZOOM = 8;
const MAX_LABELS = 60;

let atlasPromise: Promise<Atlas> | null = null;

/** us-atlas (Census Bureau TopoJSON, packaged): land, state and county lines, county names. */
function loadAtlas(): Promise<Atlas> {
  atlasPromise ??= import("us-atlas/counties-10m.json").then((m) => {
    const topo = (m.default ?? m) as unknown as Topology<{ counties: GeometryCollection<{ name: string }>; states: GeometryCollection<{ name: string }>; nation: GeometryCollection }>;
    const land = feature(topo, topo.objects.nation) as unknown as FeatureCollection;
    const states = mesh(topo, topo.objects.states, (a, b) => a !== b);
    const counties = mesh(topo, topo.objects.counties, (a, b) => a !== b && String(a.id).slice(0, 2) === String(b.id).slice(0, 2));
    const stateNames = new Map(topo.objects.states.geometries.map((g) => [String(g.id), nameOf(g.properties)]));
    const countyFeatures = feature(topo, topo.objects.counties) as unknown as FeatureCollection;
    const labels: Label[] = [];
    for (const f of countyFeatures.features) {
      const b = L.geoJSON(f).getBounds();
      if (!b.isValid()) continue;
      const c = b.getCenter();
      const state = stateNames.get(String(f.id).slice(0, 2));
      labels.push({ name: `${(f.properties as { name?: string } | null)?.name ?? ""}${state ? `, ${state}` : ""}`, lat: c.lat, lng: c.lng });
    }
    return { land, states, counties, labels };
  });
  return atlasPromise;
}

/**
 * The offline basemap: no tile server is reachable, so the map draws the packaged U.S. atlas on a
 * canvas (land, state and county boundaries, county names when zoomed in).
 */
export function Basemap() {
  const [atlas, setAtlas] = useState<Atlas | null>(null);
  const map = useMap();
  const [view, setView] = useState(() => ({ zoom: map.getZoom(), bounds: map.getBounds() }));
  useMapEvents({ moveend: () => setView({ zoom: map.getZoom(), bounds: map.getBounds() }) });
  const renderer = useMemo(() => L.canvas({ padding: 0.5 }), []);
  useEffect(() => {
    let live = true;
    void loadAtlas().then((a) => live && setAtlas(a));
    return () => {
      live = false;
    };
  }, []);
  const labels = useMemo(() => {
    if (!atlas || view.zoom < LABEL_ZOOM) return [];
    return atlas.labels.filter((l) => view.bounds.contains([l.lat, l.lng])).slice(0, MAX_LABELS);
  }, [atlas, view]);
  if (!atlas) return null;
  return (
    <>
      <GeoJSON data={atlas.land} style={{ renderer, color: "#d6d3c4", weight: 0.5, fillColor: "#f4f1e8", fillOpacity: 1 } as L.PathOptions} interactive={false} />
      <GeoJSON data={atlas.counties} style={{ renderer, color: "#c9c4b5", weight: 0.6, dashArray: "3 3" } as L.PathOptions} interactive={false} />
      <GeoJSON data={atlas.states} style={{ renderer, color: "#8f8a7a", weight: 1.4 } as L.PathOptions} interactive={false} />
      {labels.map((l) => (
        <Marker
          key={`${l.name}-${l.lat}`}
          position={[l.lat, l.lng]}
          interactive={false}
          keyboard={false}
          icon={L.divIcon({ className: "basemap-label", html: `<span>${escapeHtml(l.name)}</span>`, iconSize: [0, 0] })}
        />
      ))}
    </>
  );
}

function nameOf(props: unknown): string {
  return typeof props === "object" && props !== null && "name" in props ? String(props.name) : "";
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
