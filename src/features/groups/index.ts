/** What other features use of the groups feature. */
export { useAddToGroup } from "./hooks/useAddToGroup";
export { useGroupList } from "./hooks/useGroupList";
