import { Button, Callout, Flex, Text } from "@radix-ui/themes";
import { Component, type ReactNode } from "react";

type Props = { children: ReactNode };
type State = { error: unknown };

/** The Import History screen's error fallback: "An unexpected error occurred" with Try Again. */
export class ImportErrorFallback extends Component<Props, State> {
  state: State = { error: null };
  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }
  render() {
    if (this.state.error) {
      return (
        <Callout.Root color="red" role="alert">
          <Flex direction="column" gap="2">
            <Text weight="bold">An unexpected error occurred</Text>
            <Text size="2">Error loading import history</Text>
            <Button onClick={() => this.setState({ error: null })} style={{ alignSelf: "start" }}>
              Try Again
            </Button>
          </Flex>
        </Callout.Root>
      );
    }
    return this.props.children;
  }
}
