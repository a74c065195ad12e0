import { Box, Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { ROUTES } from "@/lib/routes";

type AuthCardProps = { title: string; description?: ReactNode; children: ReactNode; width?: number };

/** The centred card of the public account pages (register, forgot and reset password, mailbox). */
export function AuthCard({ title, description, children, width = 440 }: AuthCardProps) {
  return (
    <Flex direction="column" align="center" p="5" gap="4" style={{ minHeight: "100vh", background: "var(--gray-a2)" }}>
      <Flex align="center" gap="2" asChild>
        <Link to={ROUTES.landing} style={{ textDecoration: "none", color: "var(--gray-12)" }}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <Text weight="bold" size="5">
            Precinct
          </Text>
        </Link>
      </Flex>
      <Card size="4" style={{ width: "100%", maxWidth: width }}>
        <Box mb="4">
          <Heading size="6">{title}</Heading>
          {description && (
            <Text as="p" color="gray" size="2" mt="1">
              {description}
            </Text>
          )}
        </Box>
        {children}
      </Card>
    </Flex>
  );
}
