import { Box, Button, Callout, Card, Flex, Heading, Link, Text } from "@radix-ui/themes";
import { ExclamationTriangleIcon } from "@radix-ui/react-icons";
import { Component, type ReactNode } from "react";
import { MAP_CENTER, MAP_ZOOM } from "@convex/lib/signs/geo";

/**
 * The configured tile source failed (spec/3 §2.6): its message, the likely causes, Retry
 * Loading and Open Maps Instead. The map goes on with the offline basemap meanwhile.
 */
export function MapErrorPanel({ message, onRetry }: { message: string; onRetry(): void }) {
  return (
    <Callout.Root color="red" role="alert" mb="3">
      <Callout.Icon>
        <ExclamationTriangleIcon />
      </Callout.Icon>
      <Callout.Text weight="bold">{message}</Callout.Text>
      <Box>
        <Text as="p" size="2">
          Likely causes:
        </Text>
        <ul style={{ margin: "4px 0 8px", paddingLeft: 20, fontSize: "var(--font-size-2)" }}>
          <li>The map key is restricted to other domains</li>
          <li>The key is invalid, or billing is not set up for it</li>
          <li>The map service is not enabled for the key</li>
        </ul>
        <Text as="p" size="2" mb="2">
          Map tiles unavailable: the offline map is shown instead.
        </Text>
        <Flex gap="2" wrap="wrap">
          <Button size="1" onClick={onRetry}>
            Retry Loading
          </Button>
          <Button size="1" variant="soft" asChild>
            <Link
              href={`https://www.openstreetmap.org/#map=${MAP_ZOOM}/${MAP_CENTER.lat}/${MAP_CENTER.lng}`}
              target="_blank"
              rel="noreferrer"
            >
              Open Maps Instead
            </Link>
          </Button>
        </Flex>
      </Box>
    </Callout.Root>
  );
}

/** 'Something went wrong' with Reload Page, should the map itself crash. */
export class MapCrashBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: Error) {
    // the app's error reporter listens for window errors
    window.dispatchEvent(new ErrorEvent("error", { error, message: error.message || "Map render error" }));
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Card>
        <Heading as="h2" size="4" mb="2">
          Something went wrong
        </Heading>
        <Text as="p" size="2" mb="3">
          The map could not be shown.
        </Text>
        <Button onClick={() => window.location.reload()}>Reload Page</Button>
      </Card>
    );
  }
}
