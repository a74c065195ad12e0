import L from "leaflet";
import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";
import type { FeatureCollection } from "geojson";
import { ROAD_STYLES, styleAt, TILE_SIZE, type BBox, type StreetTile } from "./streetTiles";
import type { StreetWorkerReply, StreetWorkerRequest, TileView } from "./streetTiles.worker";

/** Streets draw above the basemap and raster tiles (200) and under place names (390) and markers (400+). */
const STREETS_PANE = "streets";
const STREETS_PANE_Z = 250;
const LABEL_COLOR = "#3b3a36";
const LABEL_HALO = "rgba(255, 255, 255, 0.92)";

type StreetsStatus = { ok: true; segments: number; bbox: BBox | null } | { ok: false; error: string };

type Request = StreetWorkerRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

const startWorker = () => new Worker(new URL("./streetTiles.worker.ts", import.meta.url), { type: "module" });

/** A worker started before a map needs it (its script loads while the page's data does). */
let spare: Worker | null = null;

/**
 * Starts a street tiles worker ahead of the first map (a map page's module calls it when it loads,
 * while the session and the map's data are still on their way); the next streets layer takes it.
 */
export function prewarmStreetTiles() {
  if (!spare && typeof Worker !== "undefined") spare = startWorker();
}

/** The page's side of the street tiles worker: one request, one reply, matched by id. */
class StreetTileClient {
  private readonly worker = takeWorker();
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

function takeWorker(): Worker {
  const w = spare ?? startWorker();
  spare = null;
  return w;
}

/** The map event a streets layer fires when it has painted its first tile with streets on it. */
export const STREETS_PAINTED = "streetspainted";

/** A canvas tile layer over the worker's tiles: 256 CSS px, drawn at the screen's pixel density. */
class StreetGridLayer extends L.GridLayer {
  private painted = false;

  constructor(
    private readonly client: StreetTileClient,
    options: L.GridLayerOptions,
    /** called once, the frame after the first tile with streets on it is drawn */
    private readonly onFirstPaint: () => void,
  ) {
    super(options);
  }

  createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const canvas = document.createElement("canvas");
    const ratio = window.devicePixelRatio || 1;
    canvas.width = canvas.height = Math.round(TILE_SIZE * ratio);
    void this.client.request({ type: "tile", z: coords.z, x: coords.x, y: coords.y }).then((reply) => {
      let drawn = false;
      if (reply.type === "tile" && reply.ok && reply.tile) {
        const ctx = canvas.getContext("2d");
        if (ctx) drawStreetTile(ctx, reply.tile, ratio);
        drawn = !!ctx;
      }
      done(undefined, canvas);
      if (drawn && !this.painted) {
        this.painted = true;
        requestAnimationFrame(() => this.onFirstPaint());
      }
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

/** The tiles the map shows now (its first view, which the worker starts reading at once). */
function tileView(map: L.Map): TileView | undefined {
  let z: number;
  let centre: L.Point;
  try {
    z = Math.round(map.getZoom());
    centre = map.project(map.getCenter(), z);
  } catch {
    return undefined; // no view yet
  }
  if (!Number.isFinite(z)) return undefined;
  const half = map.getSize().divideBy(2);
  return {
    z,
    x0: Math.floor((centre.x - half.x) / TILE_SIZE),
    y0: Math.floor((centre.y - half.y) / TILE_SIZE),
    x1: Math.floor((centre.x + half.x) / TILE_SIZE),
    y1: Math.floor((centre.y + half.y) / TILE_SIZE),
  };
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
    void client.request({ type: "load", source, view: tileView(map) }).then((reply) => {
      if (!live || reply.type !== "load") return;
      status.current?.(reply.ok ? { ok: true, segments: reply.segments, bbox: reply.bbox } : reply);
    });
    const layer = new StreetGridLayer(
      client,
      { pane: STREETS_PANE, tileSize: TILE_SIZE, updateWhenZooming: false, keepBuffer: 3 },
      () => live && map.fire(STREETS_PAINTED),
    ).addTo(map);
    return () => {
      live = false;
      layer.remove();
      client.terminate();
    };
  }, [map, source]);
  return null;
}
