import { Box, Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { Link, useNavigate } from "react-router-dom";
import { ROUTES, voterPath } from "@/lib/routes";
import { useVoterSuggestions } from "../hooks/useVoterRecord";

type VoterNotFoundProps = { title: string; text: string };

/** Not-found state with four suggested voters (the first four). */
export function VoterNotFound({ title, text }: VoterNotFoundProps) {
  const navigate = useNavigate();
  const { suggestions } = useVoterSuggestions();
  return (
    <Card size="3">
      <Heading size="6" mb="2">
        {title}
      </Heading>
      <Text as="p" color="gray" mb="4">
        {text}
      </Text>
      <Button onClick={() => navigate(ROUTES.voters)}>Back to Voters</Button>
      {suggestions && suggestions.length > 0 && (
        <Box mt="5">
          <Text as="p" weight="medium" mb="2">
            You might be looking for:
          </Text>
          <Grid columns={{ initial: "1", sm: "2" }} gap="2">
            {suggestions.map((s) => (
              <Card key={s._id} asChild>
                <Link to={voterPath(s._id)}>
                  <Flex direction="column">
                    <Text weight="medium">
                      {s.first_name} {s.last_name}
                    </Text>
                    <Text size="1" color="gray">
                      {s.email ?? ""}
                    </Text>
                  </Flex>
                </Link>
              </Card>
            ))}
          </Grid>
        </Box>
      )}
    </Card>
  );
}
