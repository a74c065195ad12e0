import L from "leaflet";
import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";
import type { FeatureCollection } from "geojson";
import { ROAD_STYLES, styleAt, TILE_SIZE, type BBox, type StreetTile } from "./streetTiles";
import type { StreetWorkerReply, StreetWorkerRequest } from "./streetTiles.worker";

/** Streets draw above the basemap and raster tiles (200) and under place names (390) and markers (400+). */
const STREETS_PANE = "streets";
const STREETS_PANE_Z = 250;
const LABEL_COLOR = "#3b3a36";
const LABEL_HALO = "rgba(255, 255, 255, 0.92)";

type StreetsStatus = { ok: true; segments: number; bbox: BBox | null } | { ok: false; error: string };

type Request = StreetWorkerRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

/** The page's side of the street tiles worker: one request, one reply, matched by id. */
class StreetTileClient {
  private readonly worker = new Worker(new URL("./streetTiles.worker.ts", import.meta.url), { type: "module" });
  private readonly pending = new Map<number, (reply: StreetWorkerReply) => void>();
  private nextId = 1;

  constructor() {
    this.worker.onmessage = (e: MessageEvent<StreetWorkerReply>) => {
      this.pending.get(e.data.id)?.(e.data);
      this.pending.delete(e.data.id);
    };
    this.worker.onerror = (e) => {
      for (const [id, resolve] of this.pending) resolve({ id, type: "tile", ok: false, error: e.message });
      this.pending.clear();
    };
  }

  request(message: Request): Promise<StreetWorkerReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ ...message, id });
    });
  }

  terminate() {
    this.worker.terminate();
    this.pending.clear();
  }
}

/** A canvas tile layer over the worker's tiles: 256 CSS px, drawn at the screen's pixel density. */
class StreetGridLayer extends L.GridLayer {
  constructor(
    private readonly client: StreetTileClient,
    options: L.GridLayerOptions,
  ) {
    super(options);
  }

  createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const canvas = document.createElement("canvas");
    const ratio = window.devicePixelRatio || 1;
    canvas.width = canvas.height = Math.round(TILE_SIZE * ratio);
    void this.client.request({ type: "tile", z: coords.z, x: coords.x, y: coords.y }).then((reply) => {
      if (reply.type === "tile" && reply.ok && reply.tile) {
        const ctx = canvas.getContext("2d");
        if (ctx) drawStreetTile(ctx, reply.tile, ratio);
      }
      done(undefined, canvas);
    });
    return canvas;
  }
}

/**
 * One tile of streets, as the worker cut it: outlines first, then the lines, both in drawing order
 * (one path per road class), then the street names with a halo.
 */
function drawStreetTile(ctx: CanvasRenderingContext2D, tile: StreetTile, ratio: number) {
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  const { classes, starts, coords } = tile;
  // runs of lines of one class (the worker sorts them)
  const runs: [classId: number, from: number, to: number][] = [];
  for (let i = 0; i < classes.length; i++) {
    const last = runs[runs.length - 1];
    if (last && last[0] === classes[i]) last[2] = i + 1;
    else runs.push([classes[i], i, i + 1]);
  }
  const trace = (from: number, to: number) => {
    ctx.beginPath();
    for (let i = from; i < to; i++) {
      const [a, b] = [starts[i], starts[i + 1]];
      ctx.moveTo(coords[2 * a], coords[2 * a + 1]);
      for (let k = a + 1; k < b; k++) ctx.lineTo(coords[2 * k], coords[2 * k + 1]);
    }
  };
  for (const casing of [true, false]) {
    for (const [c, from, to] of runs) {
      const style = styleAt(c, tile.z);
      if (!style || (casing && !style.casing)) continue;
      ctx.strokeStyle = casing ? style.casing! : style.color;
      ctx.lineWidth = casing ? style.width + 2 : style.width;
      ctx.setLineDash(!casing && ROAD_STYLES[c].dash ? [...ROAD_STYLES[c].dash] : []);
      trace(from, to);
      ctx.stroke();
    }
  }
  ctx.setLineDash([]);
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 3;
  for (const label of tile.labels) {
    ctx.save();
    ctx.translate(label.x, label.y);
    ctx.rotate(label.angle);
    ctx.font = `500 ${label.size}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
    ctx.strokeStyle = LABEL_HALO;
    ctx.strokeText(label.text, 0, 0);
    ctx.fillStyle = LABEL_COLOR;
    ctx.fillText(label.text, 0, 0);
    ctx.restore();
  }
}

/**
 * The organisation's streets on a react-leaflet map (issue 36): cut into tiles in a worker, drawn
 * on canvas tiles by road class, named from zoom 15. `source` is the layer itself or the URL of its
 * stored GeoJSON file (the worker fetches and parses it); keep it the same object between renders,
 * as a new one loads the layer again. `onStatus` hears the layer's size or why it could not be read.
 */
export function StreetsLayer({
  source,
  onStatus,
}: {
  source: FeatureCollection | string | null;
  onStatus?(status: StreetsStatus): void;
}) {
  const map = useMap();
  const status = useRef(onStatus);
  useEffect(() => {
    status.current = onStatus;
  });
  useEffect(() => {
    if (!source) return;
    if (!map.getPane(STREETS_PANE)) {
      const pane = map.createPane(STREETS_PANE);
      pane.style.zIndex = String(STREETS_PANE_Z);
      pane.style.pointerEvents = "none";
    }
    const client = new StreetTileClient();
    let live = true;
    // tiles asked for before the layer is ready wait for it in the worker
    void client.request({ type: "load", source }).then((reply) => {
      if (!live || reply.type !== "load") return;
      status.current?.(reply.ok ? { ok: true, segments: reply.segments, bbox: reply.bbox } : reply);
    });
    const layer = new StreetGridLayer(client, {
      pane: STREETS_PANE,
      tileSize: TILE_SIZE,
      updateWhenZooming: false,
      keepBuffer: 3,
    }).addTo(map);
    return () => {
      live = false;
      layer.remove();
      client.terminate();
    };
  }, [map, source]);
  return null;
}
