/** The roadmap of spec/3 §3.7 and its colours (§4). */

export type RoadmapStatus = "Completed" | "In Development" | "Planning" | "On Hold";
export type RoadmapPriority = "High" | "Medium" | "Low";

export type RoadmapItem = {
  id: string;
  title: string;
  description: string;
  status: RoadmapStatus;
  priority: RoadmapPriority;
  category: string;
  details: string[];
  estimatedCompletion: string;
  progress: number;
};

export const ROADMAP_ITEMS: RoadmapItem[] = [
  {
    id: "districts",
    title: "Districts",
    description: "Define electoral districts, see them on a map and break down your voters by district.",
    status: "Completed",
    priority: "High",
    category: "Mapping & Geography",
    details: [
      "Import district boundaries (TIGER/Line precincts, state house and senate, congressional, county, city; GeoJSON wards)",
      "Voters assigned by voter-file codes and by the map, disagreements reported",
      "Live voter counts, party and status breakdowns and turnout per district",
      "District filter in the voter list; groups from a district",
    ],
    estimatedCompletion: "Q2 2025",
    progress: 100,
  },
  {
    id: "walk-lists",
    title: "Walk Lists",
    description: "Build canvassing routes from your voter data and track door-to-door progress in the field.",
    status: "In Development",
    priority: "High",
    category: "Field Operations",
    details: [
      "Generate routes from voter addresses",
      "Assign lists to volunteers",
      "Record door outcomes on mobile",
      "Live progress per list",
    ],
    estimatedCompletion: "Q2 2025",
    progress: 75,
  },
];

export const ROADMAP_STATUSES: RoadmapStatus[] = ["Completed", "In Development", "Planning", "On Hold"];
export const STATUS_COLORS: Record<RoadmapStatus, "green" | "blue" | "yellow" | "gray"> = {
  Completed: "green",
  "In Development": "blue",
  Planning: "yellow",
  "On Hold": "gray",
};
export const PRIORITY_COLORS: Record<RoadmapPriority, "red" | "orange" | "green"> = {
  High: "red",
  Medium: "orange",
  Low: "green",
};
