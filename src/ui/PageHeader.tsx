import { Box, Flex, Heading, Text } from "@radix-ui/themes";
import { ChevronRightIcon } from "@radix-ui/react-icons";
import { Fragment, type ReactNode } from "react";
import { Link } from "react-router-dom";

type Crumb = { label: string; to?: string };

type PageHeaderProps = {
  title: ReactNode;
  description?: ReactNode;
  breadcrumbs?: Crumb[];
  actions?: ReactNode;
};

/** Title, breadcrumbs and page actions, the same on every screen. */
export function PageHeader({ title, description, breadcrumbs, actions }: PageHeaderProps) {
  return (
    <Box mb="5">
      {breadcrumbs && breadcrumbs.length > 0 && (
        <Flex asChild align="center" gap="1" mb="2" wrap="wrap">
          <nav aria-label="Breadcrumb">
            {breadcrumbs.map((c, i) => (
              <Fragment key={`${c.label}-${i}`}>
                {i > 0 && <ChevronRightIcon color="gray" />}
                {c.to ? (
                  <Text size="2" asChild color="gray">
                    <Link to={c.to}>{c.label}</Link>
                  </Text>
                ) : (
                  <Text size="2" weight="medium">
                    {c.label}
                  </Text>
                )}
              </Fragment>
            ))}
          </nav>
        </Flex>
      )}
      <Flex justify="between" align="start" gap="4" wrap="wrap">
        <Box>
          <Heading size="7">{title}</Heading>
          {description && (
            <Text as="p" color="gray" mt="1">
              {description}
            </Text>
          )}
        </Box>
        {actions && (
          <Flex gap="2" wrap="wrap">
            {actions}
          </Flex>
        )}
      </Flex>
    </Box>
  );
}
