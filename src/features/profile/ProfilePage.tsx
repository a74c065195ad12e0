import { Heading } from "@radix-ui/themes";

export function ProfilePage() {
  return <Heading>Profile</Heading>;
}
