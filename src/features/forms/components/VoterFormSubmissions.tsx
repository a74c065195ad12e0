import { Card, Flex, Heading, Link as RadixLink, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import type { Id } from "@convex/_generated/dataModel";
import { useViewer } from "@/session/ViewerProvider";
import { ROUTES } from "@/lib/routes";
import { useVoterFormSubmissions } from "../hooks/useSubmissions";

/** A voter's form submissions (forms that match submissions to voters), part of their contact history. */
export function VoterFormSubmissions({ voterId }: { voterId: Id<"voters"> }) {
  const { can } = useViewer();
  const { rows } = useVoterFormSubmissions(voterId, can("forms.view"));
  if (!rows || rows.length === 0) return null;
  return (
    <Card data-testid="voters.formSubmissions">
      <Heading as="h2" size="4" mb="2">
        Form Submissions
      </Heading>
      <Flex direction="column" gap="1">
        {rows.map((r) => (
          <Text key={r.id} size="2">
            {r.formName} · {new Date(r.createdAt).toLocaleString()}
          </Text>
        ))}
      </Flex>
      <RadixLink asChild size="2" mt="2">
        <Link to={ROUTES.formSubmissions}>All submissions</Link>
      </RadixLink>
    </Card>
  );
}
