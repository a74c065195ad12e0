import { Avatar, Badge, Button, DropdownMenu, Flex, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useNavigate } from "react-router-dom";
import { api } from "@convex/_generated/api";
import { toast } from "@/ui/toast";
import { useAppAuth } from "@/session/AppAuth";
import { useViewer } from "@/session/ViewerProvider";
import { ROUTES } from "@/lib/routes";

/** Profile, impersonate role, Subscription, admin pages, Settings, Sign out (spec/1 §2). */
export function UserMenu() {
  const { me, canAdminister, can } = useViewer();
  const { signOut } = useAppAuth();
  const navigate = useNavigate();
  const startImpersonation = useMutation(api.viewer.startImpersonation);
  const stopImpersonation = useMutation(api.viewer.stopImpersonation);
  const setActiveRole = useMutation(api.viewer.setActiveRole);
  if (!me || !me.org) return null;
  const display = `${me.firstName} ${me.lastName}`.trim() || me.email;
  const active = me.roles.find((r) => r.id === me.activeRole);
  const impersonated = me.impersonatableRoles.find((r) => r.id === me.impersonatedRole);

  const run = (p: Promise<unknown>, title: string) => p.catch((e) => toast.failure(title, e));
  // A full load of the landing page: nothing of the previous session stays in memory, and the
  // auth guard's "remember the origin" redirect (which races the sign-out) is discarded.
  const handleSignOut = () => void signOut().finally(() => window.location.replace(ROUTES.landing));

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <Button variant="ghost" color="gray" data-testid="shell.userMenu">
          <Flex align="center" gap="2">
            <Avatar size="2" radius="full" fallback={display.slice(0, 1).toUpperCase()} />
            {/* on a phone only the avatar shows; the name, organisation and role stay the button's name */}
            <Flex direction="column" align="start" className="shell-narrow-hidden">
              <Text size="2" weight="medium">
                {display}
              </Text>
              <Text size="1" color="gray">
                {me.org.name}
              </Text>
            </Flex>
            {impersonated ? (
              <Badge color="orange">Viewing as {impersonated.name}</Badge>
            ) : (
              active && (
                <Badge color={active.color} className="shell-narrow-hidden">
                  {active.name}
                </Badge>
              )
            )}
          </Flex>
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="end">
        <DropdownMenu.Item onSelect={() => navigate(ROUTES.profile)}>Profile</DropdownMenu.Item>
        {me.roles.length > 1 && (
          <DropdownMenu.Sub>
            <DropdownMenu.SubTrigger>Switch role</DropdownMenu.SubTrigger>
            <DropdownMenu.SubContent>
              {me.roles.map((r) => (
                <DropdownMenu.Item
                  key={r.id}
                  disabled={r.id === me.activeRole}
                  onSelect={() => run(setActiveRole({ roleId: r.id }), "Error switching role")}
                >
                  {r.name}
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.SubContent>
          </DropdownMenu.Sub>
        )}
        {me.impersonatedRole ? (
          <DropdownMenu.Item onSelect={() => run(stopImpersonation({}), "Error stopping impersonation")}>
            Stop impersonating
          </DropdownMenu.Item>
        ) : (
          <DropdownMenu.Sub>
            <DropdownMenu.SubTrigger>Impersonate role</DropdownMenu.SubTrigger>
            <DropdownMenu.SubContent>
              {me.impersonatableRoles.map((r) => (
                <DropdownMenu.Item
                  key={r.id}
                  onSelect={() => run(startImpersonation({ roleId: r.id }), "Error impersonating role")}
                >
                  {r.name}
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.SubContent>
          </DropdownMenu.Sub>
        )}
        <DropdownMenu.Item onSelect={() => navigate(ROUTES.subscription)}>Subscription</DropdownMenu.Item>
        {canAdminister && (
          <DropdownMenu.Item onSelect={() => navigate(ROUTES.accountSettings)}>Account Settings</DropdownMenu.Item>
        )}
        {canAdminister && (
          <DropdownMenu.Item onSelect={() => navigate(ROUTES.userRoleManagement)}>Users &amp; Roles</DropdownMenu.Item>
        )}
        {can("audit.view") && (
          <DropdownMenu.Item onSelect={() => navigate(ROUTES.auditLog)}>Audit Log</DropdownMenu.Item>
        )}
        <DropdownMenu.Item onSelect={() => navigate(ROUTES.settings)}>Settings</DropdownMenu.Item>
        <DropdownMenu.Separator />
        <DropdownMenu.Item color="red" onSelect={handleSignOut}>
          Sign out
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
