import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { Fragment, useEffect, useMemo, useState, type ReactNode } from "react";
import {
  AttributionControl,
  CircleMarker,
  MapContainer,
  Marker,
  Polyline,
  Popup,
  Tooltip,
  useMap,
  useMapEvents,
} from "react-leaflet";
import type { FeatureCollection } from "geojson";
import Supercluster from "supercluster";
import { MAP_CENTER, MAP_ZOOM, MAX_CELL_LEVEL } from "@convex/lib/signs/geo";
import type { Id } from "@convex/_generated/dataModel";
import { NoStreetsNotice } from "@/lib/map/NoStreetsNotice";
import { PmtilesBasemap } from "@/lib/map/PmtilesBasemap";
import { RasterTiles } from "@/lib/map/RasterTiles";
import { prewarmStreetTiles, StreetsLayer } from "@/lib/map/StreetsLayer";
import { ROUTES } from "@/lib/routes";
import type { MapViewport, SignMapData } from "../hooks/useSignMap";
import { markerColor } from "../utils/signDisplay";
import { spreadOverlapping } from "../utils/spread";
import { Basemap } from "./Basemap";

// the street tiles worker starts loading with this module, before the map's data arrives
prewarmStreetTiles();

/** The browser asks for reduced motion (read once: Leaflet takes its animation options at creation). */
const REDUCED_MOTION =
  typeof window !== "undefined" &&
  typeof window.matchMedia === "function" &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** The map is 600 px tall (spec/3 §9.4); the viewport query covers a quarter more on each side. */
const MAP_HEIGHT = 600;
const PAD = 0.25;
/** Above this zoom every sign is drawn on its own. */
const CLUSTER_MAX_ZOOM = 16;

type PointProps = { id: Id<"signs"> | null; status: string; count: number; pickupDue: boolean };

type SignMapProps = {
  data: SignMapData | undefined;
  onViewport(v: MapViewport): void;
  selected: { id: Id<"signs">; lat: number; lng: number } | null;
  popup: ReactNode;
  onSelect(id: Id<"signs">, lat: number, lng: number): void;
  onClosePopup(id: Id<"signs">): void;
  /** while the add/edit form is open, a click on the map picks its location */
  picking: boolean;
  onPick(lat: number, lng: number): void;
  /** a place to show (View on map); a new `key` moves the map again */
  focus: { lat: number; lng: number; key: number } | null;
  pickedPoint: { lat: number; lng: number } | null;
  onTileError(message: string): void;
  tilesFailed: boolean;
  /** false while another tab hides the map (its size is measured again when it shows) */
  visible: boolean;
  /**
   * The organisation's streets layer (the collection, or its stored GeoJSON file's URL); null when it
   * has none (the map says how to add one); not given: no street data is known yet (nothing said).
   */
  streets?: FeatureCollection | string | null;
  /** the organisation's PMTiles basemap file (URL), drawn instead of raster tiles and the offline basemap */
  basemapUrl?: string | null;
  /** the organisation's raster tile source (Map data), if it set one */
  tiles?: { url: string; attribution: string } | null;
  /** where "Account Settings → Map data" links */
  mapDataHref?: string;
};

function ViewportWatcher({ onViewport }: { onViewport(v: MapViewport): void }) {
  const map = useMap();
  useEffect(() => {
    const report = () => {
      const b = map.getBounds().pad(PAD);
      onViewport({
        bounds: {
          south: Math.max(-85, b.getSouth()),
          west: Math.max(-180, b.getWest()),
          north: Math.min(85, b.getNorth()),
          east: Math.min(180, b.getEast()),
        },
        zoom: map.getZoom(),
      });
    };
    report();
    map.on("moveend", report);
    return () => {
      map.off("moveend", report);
    };
  }, [map, onViewport]);
  return null;
}

function ClickPicker({ picking, onPick }: { picking: boolean; onPick(lat: number, lng: number): void }) {
  const map = useMapEvents({ click: (e) => picking && onPick(e.latlng.lat, e.latlng.lng) });
  useEffect(() => {
    map.getContainer().style.cursor = picking ? "crosshair" : "";
  }, [map, picking]);
  return null;
}

function SizeWatcher({ visible }: { visible: boolean }) {
  const map = useMap();
  useEffect(() => {
    if (visible) map.invalidateSize();
  }, [map, visible]);
  return null;
}

function Focus({ focus }: { focus: SignMapProps["focus"] }) {
  const map = useMap();
  useEffect(() => {
    if (focus) map.setView([focus.lat, focus.lng], Math.max(map.getZoom(), 17));
  }, [map, focus]);
  return null;
}

const clusterIcons = new Map<string, L.DivIcon>();
function clusterIcon(count: number): L.DivIcon {
  const label =
    count >= 10_000 ? `${Math.round(count / 1000)}k` : count >= 1000 ? `${(count / 1000).toFixed(1)}k` : String(count);
  const size = Math.round(30 + Math.min(26, Math.log10(count) * 9));
  const key = `${label}:${size}`;
  let icon = clusterIcons.get(key);
  if (!icon) {
    icon = L.divIcon({ className: "sign-cluster", html: `<span>${label}</span>`, iconSize: [size, size] });
    clusterIcons.set(key, icon);
  }
  return icon;
}

/** Markers of one answer: points (clustered where they overlap) or per-tile counts (clustered too). */
function SignMarkers({ data, onSelect }: { data: SignMapData; onSelect: SignMapProps["onSelect"] }) {
  const map = useMap();
  const [view, setView] = useState(() => ({ zoom: map.getZoom(), bounds: map.getBounds() }));
  useMapEvents({ moveend: () => setView({ zoom: map.getZoom(), bounds: map.getBounds() }) });
  const index = useMemo(() => {
    const sc = new Supercluster<PointProps, { count: number }>({
      // radius in screen pixels: leaflet's tiles are 256 px
      extent: 256,
      radius: 60,
      maxZoom: CLUSTER_MAX_ZOOM,
      map: (p) => ({ count: p.count }),
      reduce: (acc, p) => {
        acc.count += p.count;
      },
    });
    const features =
      data.points.length > 0
        ? data.points.map((p) => ({
            type: "Feature" as const,
            geometry: { type: "Point" as const, coordinates: [p.lng, p.lat] },
            properties: { id: p.id, status: p.status, count: 1, pickupDue: p.pickupDue },
          }))
        : data.cells.map((c) => ({
            type: "Feature" as const,
            geometry: { type: "Point" as const, coordinates: [c.lng, c.lat] },
            properties: { id: null, status: "", count: c.count, pickupDue: false },
          }));
    sc.load(features);
    return sc;
  }, [data]);
  const b = view.bounds.pad(0.1);
  const clusters = index.getClusters([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], Math.round(view.zoom));
  // signs drawn on their own that share a spot (placed by ZIP, one address) are fanned out around it
  const single = clusters.filter(
    (c) => !(c.properties as { cluster?: boolean }).cluster && (c.properties as Partial<PointProps>).id,
  );
  const spread = spreadOverlapping(
    single.map((c) => map.latLngToLayerPoint([c.geometry.coordinates[1], c.geometry.coordinates[0]])),
  );
  const placed = new Map(single.map((c, i) => [c, spread[i]]));
  return (
    <>
      {clusters.map((c) => {
        const [lng, lat] = c.geometry.coordinates;
        const p = c.properties as Partial<PointProps> & { cluster?: boolean; cluster_id?: number; count: number };
        if (!p.cluster && p.id) {
          const id = p.id;
          const fan = placed.get(c);
          const fanned = fan && (fan.at.x !== fan.spot.x || fan.at.y !== fan.spot.y);
          const at = fanned ? map.layerPointToLatLng(L.point(fan.at.x, fan.at.y)) : L.latLng(lat, lng);
          return (
            <Fragment key={id}>
              {fanned && (
                <Polyline
                  positions={[[lat, lng], at]}
                  pathOptions={{ color: "#475569", weight: 1.5, opacity: 0.8 }}
                  interactive={false}
                />
              )}
              <CircleMarker
                center={at}
                radius={9}
                className={`sign-marker sign-marker--${p.status}`}
                pathOptions={{
                  color: p.pickupDue ? "#f59e0b" : "#ffffff",
                  weight: p.pickupDue ? 3 : 2,
                  fillColor: markerColor(p.status ?? ""),
                  fillOpacity: 0.95,
                }}
                eventHandlers={{
                  click: (e) => {
                    L.DomEvent.stopPropagation(e);
                    onSelect(id, lat, lng);
                  },
                }}
              >
                <Tooltip direction="top" offset={[0, -8]}>
                  {p.status}
                  {p.pickupDue ? " · due for pickup" : ""}
                </Tooltip>
              </CircleMarker>
            </Fragment>
          );
        }
        const key = p.cluster ? `c${p.cluster_id}` : `t${lat},${lng}`;
        return (
          <Marker
            key={key}
            position={[lat, lng]}
            icon={clusterIcon(p.count)}
            keyboard={false}
            title={`${p.count.toLocaleString("en-US")} signs`}
            eventHandlers={{
              click: () => {
                const next =
                  p.cluster && data.points.length > 0
                    ? index.getClusterExpansionZoom(p.cluster_id!)
                    : map.getZoom() + 2;
                map.setView([lat, lng], Math.min(next, MAX_CELL_LEVEL + 3));
              },
            }}
          />
        );
      })}
    </>
  );
}

/**
 * The sign map (spec/3 §2.6): leaflet on the offline basemap (or a configured tile source),
 * markers coloured by status, clusters where signs crowd, the info window of the selected sign.
 */
export function SignMap(props: SignMapProps) {
  const {
    data,
    onViewport,
    selected,
    popup,
    onSelect,
    onClosePopup,
    picking,
    onPick,
    focus,
    pickedPoint,
    onTileError,
    tilesFailed,
    visible,
    streets,
    basemapUrl,
    tiles: orgTiles,
    mapDataHref = ROUTES.mapData,
  } = props;
  const [basemapFailed, setBasemapFailed] = useState(false);
  useEffect(() => setBasemapFailed(false), [basemapUrl]);
  const tiles = orgTiles ?? null;
  // one base under the streets: the PMTiles file, else raster tiles, else the packaged offline atlas
  const base = basemapUrl && !basemapFailed ? "pmtiles" : tiles && !tilesFailed ? "raster" : "offline";
  return (
    <div data-testid="signs.map" style={{ position: "relative" }}>
      <MapContainer
        center={[MAP_CENTER.lat, MAP_CENTER.lng]}
        zoom={MAP_ZOOM}
        minZoom={3}
        maxZoom={19}
        style={{ height: MAP_HEIGHT, width: "100%", background: "#cfe3f3", borderRadius: "var(--radius-3)" }}
        worldCopyJump={false}
        attributionControl={false}
        // people who ask for reduced motion get no zoom, fade or marker animations
        fadeAnimation={!REDUCED_MOTION}
        zoomAnimation={!REDUCED_MOTION}
        markerZoomAnimation={!REDUCED_MOTION}
      >
        {base === "pmtiles" && <PmtilesBasemap url={basemapUrl!} onError={() => setBasemapFailed(true)} />}
        {base === "raster" && <RasterTiles url={tiles!.url} attribution={tiles!.attribution} onError={onTileError} />}
        {base === "offline" && <Basemap streets={streets === undefined ? "loading" : streets ? "some" : "none"} />}
        {base !== "offline" && <AttributionControl />}
        {streets && <StreetsLayer source={streets} />}
        <ViewportWatcher onViewport={onViewport} />
        <SizeWatcher visible={visible} />
        <ClickPicker picking={picking} onPick={onPick} />
        <Focus focus={focus} />
        {data && <SignMarkers data={data} onSelect={onSelect} />}
        {pickedPoint && picking && (
          <CircleMarker
            center={[pickedPoint.lat, pickedPoint.lng]}
            radius={12}
            pathOptions={{ color: "#7c3aed", weight: 3, fill: false, dashArray: "4 3", className: "sign-picked" }}
            interactive={false}
          />
        )}
        {selected && (
          <Popup
            key={selected.id}
            position={[selected.lat, selected.lng]}
            eventHandlers={{ remove: () => onClosePopup(selected.id) }}
            offset={[0, -6]}
            minWidth={260}
            maxWidth={320}
          >
            {popup}
          </Popup>
        )}
      </MapContainer>
      {streets === null && (
        // over the map's lower left corner, clear of the attribution line
        <div style={{ position: "absolute", left: 10, bottom: 26, zIndex: 1000, maxWidth: "calc(100% - 20px)" }}>
          <NoStreetsNotice href={mapDataHref} testId="signs.noStreets" />
        </div>
      )}
    </div>
  );
}
