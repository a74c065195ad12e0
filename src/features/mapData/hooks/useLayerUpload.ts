import { useAction, useMutation } from "convex/react";
import { useCallback, useState } from "react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { uploadLayer, type UploadProgress } from "../utils/uploadLayer";
import type { ParsedLayer } from "../worker/parseLayer.worker";

/** Uploads a parsed layer (file, record, rows in batches, finish) with its progress; throws the server's refusal. */
export function useLayerUpload() {
  const generateUploadUrl = useAction(api.mapData.generateUploadUrl);
  const createLayer = useAction(api.mapData.createLayer);
  const appendSegments = useMutation(api.mapData.appendSegments);
  const appendBoundaries = useMutation(api.mapData.appendBoundaries);
  const finish = useMutation(api.mapData.finish);
  const [progress, setProgress] = useState<UploadProgress | null>(null);

  const upload = useCallback(
    async (layer: ParsedLayer, file: File, options: { name: string; replaces: Id<"mapLayers"> | null }) => {
      try {
        return await uploadLayer(
          {
            generateUploadUrl,
            createLayer,
            appendSegments,
            appendBoundaries,
            finish,
            fetch: (...args) => window.fetch(...args),
          },
          layer,
          file,
          options,
          setProgress,
        );
      } finally {
        setProgress(null);
      }
    },
    [generateUploadUrl, createLayer, appendSegments, appendBoundaries, finish],
  );
  return { upload, progress };
}
