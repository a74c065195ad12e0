import { Badge, Box, Button, Card, Flex, Grid, Heading } from "@radix-ui/themes";
import { Pencil1Icon } from "@radix-ui/react-icons";
import { useState } from "react";
import { useViewer } from "@/session/ViewerProvider";
import { PageHeader } from "@/ui/PageHeader";
import { ChangePasswordCard } from "./components/ChangePasswordCard";
import { ProfileField } from "./components/ProfileField";
import { ProfileForm } from "./components/ProfileForm";
import { SuperAdminVerifyCallout } from "./components/SuperAdminVerifyCallout";
import { ROUTES } from "@/lib/routes";
import { Loading } from "@/ui/Loading";

const NOT_PROVIDED = "Not provided";

/** /profile (spec/1 §2): read view, Edit Profile form, Change Password. */
export function ProfilePage() {
  const { me } = useViewer();
  const [editing, setEditing] = useState(false);
  if (!me) return <Loading inline size="2" />;
  const role = me.org ? (me.roles.find((r) => r.id === me.activeRole) ?? me.roles[0]) : undefined;
  const roleName = role?.name ?? "Member";

  return (
    <Box style={{ maxWidth: 880 }}>
      <PageHeader title="Profile" breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: "Profile" }]} />
      <SuperAdminVerifyCallout />
      <Flex direction="column" gap="5">
        <Card size="3">
          <Flex justify="between" align="center" mb="4">
            <Heading size="4">{editing ? "Edit Profile" : "Personal Information"}</Heading>
            {!editing && (
              <Button variant="soft" onClick={() => setEditing(true)}>
                <Pencil1Icon /> Edit Profile
              </Button>
            )}
          </Flex>
          {editing ? (
            <ProfileForm
              initial={{
                firstName: me.firstName,
                lastName: me.lastName,
                email: me.email,
                phone: me.phone,
                organization: me.organization,
              }}
              roleName={roleName}
              onDone={() => setEditing(false)}
            />
          ) : (
            <Grid columns={{ initial: "1", sm: "2" }} gap="4" data-testid="profile.readView">
              <ProfileField label="First Name" value={me.firstName || NOT_PROVIDED} />
              <ProfileField label="Last Name" value={me.lastName || NOT_PROVIDED} />
              <ProfileField label="Email" value={me.email} />
              <ProfileField label="Phone" value={me.phone || NOT_PROVIDED} />
              <ProfileField label="Organization" value={me.organization || NOT_PROVIDED} />
              <ProfileField label="Role" value={<Badge color={role?.color ?? "gray"}>{roleName}</Badge>} />
            </Grid>
          )}
        </Card>
        <ChangePasswordCard />
      </Flex>
    </Box>
  );
}
