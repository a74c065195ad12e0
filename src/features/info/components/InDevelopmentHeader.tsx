import { Badge, Callout, Flex } from "@radix-ui/themes";
import { InfoCircledIcon } from "@radix-ui/react-icons";
import { PageHeader } from "@/ui/PageHeader";
import { ROUTES } from "@/lib/routes";

/** Title with the In Development badge and the notice that the page shows sample data (spec/3 §2.7). */
export function InDevelopmentHeader({ title, description }: { title: string; description: string }) {
  return (
    <>
      <PageHeader
        title={
          <Flex align="center" gap="3">
            {title}
            <Badge color="blue" size="2">
              In Development
            </Badge>
          </Flex>
        }
        description={description}
        breadcrumbs={[{ label: "Dashboard", to: ROUTES.dashboard }, { label: title }]}
      />
      <Callout.Root color="blue" mb="4">
        <Callout.Icon>
          <InfoCircledIcon />
        </Callout.Icon>
        <Callout.Text>
          This feature is coming soon. The data below is sample data and the buttons are disabled. See the Roadmap for
          progress.
        </Callout.Text>
      </Callout.Root>
    </>
  );
}
