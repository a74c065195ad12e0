import { Heading } from "@radix-ui/themes";

export function UserRoleManagementPage() {
  return <Heading>Users & Roles</Heading>;
}
