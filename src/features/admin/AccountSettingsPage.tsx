import { Heading } from "@radix-ui/themes";

export function AccountSettingsPage() {
  return <Heading>Account Settings</Heading>;
}
