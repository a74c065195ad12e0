import { Heading } from "@radix-ui/themes";

export function RoadmapPage() {
  return <Heading>Roadmap</Heading>;
}
