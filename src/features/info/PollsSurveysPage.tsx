import { Heading } from "@radix-ui/themes";

export function PollsSurveysPage() {
  return <Heading>Polls & Surveys</Heading>;
}
