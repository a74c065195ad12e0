import "leaflet/dist/leaflet.css";
import { useEffect, useRef, useState } from "react";
import { AttributionControl, CircleMarker, MapContainer, useMap } from "react-leaflet";
import { PmtilesBasemap } from "@/lib/map/PmtilesBasemap";
import { RasterTiles } from "@/lib/map/RasterTiles";
import { prewarmStreetTiles, StreetsLayer, STREETS_PAINTED } from "@/lib/map/StreetsLayer";
import { doorsBox, type ShownState } from "../utils/doors";
import type { BundleDoor, OrgMapCopy } from "../utils/store";

// the street tiles worker starts loading with this module, before the list's copy is read
prewarmStreetTiles();

const REDUCED_MOTION =
  typeof window !== "undefined" &&
  typeof window.matchMedia === "function" &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Door colours: to knock, knocked, the door on screen, held by a teammate. */
const COLORS = { open: "#2563eb", knocked: "#16a34a", current: "#ea580c", other: "#9ca3af" } as const;

type CanvassMapProps = {
  doors: BundleDoor[];
  shown: Map<string, ShownState>;
  currentId: string | null;
  orgMap: OrgMapCopy | null;
  position: { lat: number; lng: number } | null;
  onSelect(doorId: string): void;
};

/** Fits the turf once, then follows the door on screen. */
function View({ doors, current }: { doors: BundleDoor[]; current: BundleDoor | null }) {
  const map = useMap();
  const fitted = useRef(false);
  useEffect(() => {
    const box = doorsBox(doors);
    if (!box || fitted.current) return;
    fitted.current = true;
    map.fitBounds(
      [
        [box[1], box[0]],
        [box[3], box[2]],
      ],
      { padding: [20, 20], maxZoom: 17 },
    );
  }, [map, doors]);
  useEffect(() => {
    if (current && fitted.current && !map.getBounds().pad(-0.1).contains([current.lat, current.lng]))
      map.panTo([current.lat, current.lng], { animate: !REDUCED_MOTION });
  }, [map, current]);
  return null;
}

/** Reports the streets layer's first painted tile (the map's `data-streets` says so, for people and tests). */
function StreetsWatch({ onPainted }: { onPainted(): void }) {
  const map = useMap();
  useEffect(() => {
    map.on(STREETS_PAINTED, onPainted);
    return () => {
      map.off(STREETS_PAINTED, onPainted);
    };
  }, [map, onPainted]);
  return null;
}

/**
 * The turf's small map: the organisation's streets (and basemap), its doors coloured by state, the
 * door on screen larger, the canvasser's position when shared. Tapping a door opens it.
 */
export function CanvassMap({ doors, shown, currentId, orgMap, position, onSelect }: CanvassMapProps) {
  const [painted, setPainted] = useState(false);
  const onPainted = useRef(() => setPainted(true)).current;
  const base = orgMap?.basemapUrl ? "pmtiles" : orgMap?.tiles ? "raster" : "none";
  const current = doors.find((d) => d.id === currentId) ?? null;
  return (
    <div
      data-testid="canvass.map"
      data-streets={painted ? "painted" : orgMap?.streets ? "loading" : "none"}
      role="region"
      aria-label="Map of the walk list's doors"
      style={{ position: "relative" }}
    >
      <MapContainer
        center={[39.8, -98.6]}
        zoom={4}
        minZoom={3}
        maxZoom={19}
        preferCanvas
        style={{ height: 200, width: "100%", background: "#eef2f5", borderRadius: "var(--radius-3)" }}
        attributionControl={false}
        zoomControl={false}
        fadeAnimation={!REDUCED_MOTION}
        zoomAnimation={!REDUCED_MOTION}
        markerZoomAnimation={!REDUCED_MOTION}
      >
        {base === "pmtiles" && <PmtilesBasemap url={orgMap!.basemapUrl!} onError={() => {}} />}
        {base === "raster" && (
          <RasterTiles url={orgMap!.tiles!.url} attribution={orgMap!.tiles!.attribution} onError={() => {}} />
        )}
        {base !== "none" && <AttributionControl />}
        {orgMap?.streets && <StreetsLayer source={orgMap.streets} />}
        <StreetsWatch onPainted={onPainted} />
        <View doors={doors} current={current} />
        {doors.map((d) => {
          const color =
            d.id === currentId
              ? COLORS.current
              : d.claim === "other"
                ? COLORS.other
                : shown.has(d.id)
                  ? COLORS.knocked
                  : COLORS.open;
          return (
            <CircleMarker
              key={d.id}
              center={[d.lat, d.lng]}
              radius={d.id === currentId ? 9 : 6}
              pathOptions={{ color: "#ffffff", weight: 2, fillColor: color, fillOpacity: 0.95 }}
              eventHandlers={{ click: () => onSelect(d.id) }}
            />
          );
        })}
        {position && (
          <CircleMarker
            center={[position.lat, position.lng]}
            radius={7}
            interactive={false}
            pathOptions={{ color: "#1d4ed8", weight: 3, fillColor: "#93c5fd", fillOpacity: 0.9 }}
          />
        )}
      </MapContainer>
    </div>
  );
}
