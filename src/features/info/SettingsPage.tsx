import { Heading } from "@radix-ui/themes";

export function SettingsPage() {
  return <Heading>Settings</Heading>;
}
