import { LockClosedIcon } from "@radix-ui/react-icons";
import { Callout, Flex, Text } from "@radix-ui/themes";

type AccessRestrictedProps = { title?: string; message: string };

/** What a member without the needed role sees instead of an admin screen. */
export function AccessRestricted({ title = "Access Restricted", message }: AccessRestrictedProps) {
  return (
    <Flex justify="center" p="6">
      <Callout.Root color="red" role="alert" style={{ maxWidth: 560 }} data-testid="admin.accessRestricted">
        <Callout.Icon>
          <LockClosedIcon />
        </Callout.Icon>
        <Callout.Text>
          <Text weight="bold" as="div">
            {title}
          </Text>
          {message}
        </Callout.Text>
      </Callout.Root>
    </Flex>
  );
}
