import { Heading } from "@radix-ui/themes";

export function DashboardPage() {
  return <Heading>Dashboard</Heading>;
}
