import { useAction, useMutation, useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";

/** Pages & Entry: a petition's pages (live), their scans' upload, typed lines and CSV transcriptions. */
export function usePetitionPages(petitionId: Id<"petitions">) {
  const pages = useQuery(api.petitions.pages, { petitionId });
  const uploadUrl = useAction(api.petitions.generateUploadUrl);
  const acceptPageFile = useAction(api.petitions.acceptPageFile);
  const addPage = useMutation(api.petitions.addPage);
  const addLines = useMutation(api.petitions.addLines);
  const importLines = useMutation(api.petitions.importLines);
  return { pages, uploadUrl, acceptPageFile, addPage, addLines, importLines };
}
