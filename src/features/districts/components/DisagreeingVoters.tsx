import { Box, Button, Flex, Heading, Link as RadixLink, Text } from "@radix-ui/themes";
import { Link } from "react-router-dom";
import { voterPath } from "@/lib/routes";
import { Loading } from "@/ui/Loading";
import { useDistrictDisagreements, type DisagreementDirection } from "../hooks/useDistricts";

const PAGE = 25;

const HEADINGS: Record<DisagreementDirection, string> = {
  mappedElsewhere: "Coded to this district, placed in another on the map",
  codedElsewhere: "Placed in this district on the map, coded to another",
};

/**
 * A district's voters whose code and map disagree one way, a page at a time: each with its
 * address, the district its code names and the one the map places it in, and a link to the
 * voter (a list rather than a table: it fits a phone's width).
 */
export function DisagreeingVoters({ districtId, direction }: { districtId: string; direction: DisagreementDirection }) {
  const { results, status, loadMore } = useDistrictDisagreements(districtId, direction, PAGE);
  const headingId = `district-disagreement-${direction}`;
  return (
    <Box mt="3" data-testid={`districts.panel.disagreeing.${direction}`}>
      <Heading as="h3" size="2" mb="2" id={headingId}>
        {HEADINGS[direction]}
      </Heading>
      {status === "LoadingFirstPage" ? (
        <Loading inline size="2" />
      ) : results.length === 0 ? (
        <Text size="2" color="gray">
          None any more.
        </Text>
      ) : (
        <Box asChild m="0" p="0" style={{ listStyle: "none" }}>
          <ul aria-labelledby={headingId}>
            {results.map((r) => (
              <Box asChild key={r.voterId} py="2" style={{ borderBottom: "1px solid var(--gray-a5)" }}>
                <li data-testid="districts.panel.disagreeingVoter">
                  <RadixLink asChild weight="medium">
                    <Link to={voterPath(r.voterId)}>{r.name || "Unnamed voter"}</Link>
                  </RadixLink>
                  {r.address && (
                    <Text as="div" size="1" color="gray">
                      {r.address}
                    </Text>
                  )}
                  <Text as="div" size="1">
                    Code: {r.codedName} · Map: {r.mappedName}
                  </Text>
                </li>
              </Box>
            ))}
          </ul>
        </Box>
      )}
      {(status === "CanLoadMore" || status === "LoadingMore") && (
        <Flex justify="center" mt="2">
          <Button variant="soft" size="1" loading={status === "LoadingMore"} onClick={() => loadMore(PAGE)}>
            Load more
          </Button>
        </Flex>
      )}
    </Box>
  );
}
