import { Tabs, Text } from "@radix-ui/themes";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { AccessRestricted } from "./components/AccessRestricted";
import { RolesTab } from "./components/RolesTab";
import { UsersTab } from "./components/UsersTab";
import { ROUTES } from "@/lib/routes";
import { useRoleList } from "./hooks/useRoles";

/** /user-role-management (spec/3 §2.14): super admins and account admins (users.manage, enforced server-side). */
export function UserRoleManagementPage() {
  const { can } = useViewer();
  const allowed = can("users.manage");
  const { roles } = useRoleList(allowed);
  if (!allowed) return <AccessRestricted message="You don't have permission to manage users and roles." />;
  const roleItems = (roles ?? []).map((r) => ({ ...r, modes: r.modes }));
  return (
    <>
      <PageHeader
        title="Users & Roles"
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Users & Roles" }]}
      />
      <Tabs.Root defaultValue="users">
        <Tabs.List>
          <Tabs.Trigger value="users">Users</Tabs.Trigger>
          <Tabs.Trigger value="roles">Roles</Tabs.Trigger>
        </Tabs.List>
        {roles === undefined ? (
          <Text color="gray" mt="3" as="p">
            Loading...
          </Text>
        ) : (
          <>
            <Tabs.Content value="users" mt="3">
              <UsersTab roles={roleItems} />
            </Tabs.Content>
            <Tabs.Content value="roles" mt="3">
              <RolesTab roles={roleItems} />
            </Tabs.Content>
          </>
        )}
      </Tabs.Root>
    </>
  );
}
