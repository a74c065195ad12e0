import { Button, Card, Code, Flex, Heading, Text } from "@radix-ui/themes";
import { ExclamationTriangleIcon } from "@radix-ui/react-icons";

type CrashScreenProps = {
  errorId: string;
  attemptsLeft: number;
  onTryAgain(): void;
  onReload(): void;
  onGoToDashboard(): void;
};

/** The crash screen of spec/1 §8. */
export function CrashScreen({ errorId, attemptsLeft, onTryAgain, onReload, onGoToDashboard }: CrashScreenProps) {
  return (
    <Flex align="center" justify="center" p="5" style={{ minHeight: "100vh", background: "var(--gray-a2)" }}>
      <Card size="4" style={{ maxWidth: 520, width: "100%" }} role="alert" data-testid="errors.crashScreen">
        <Flex direction="column" gap="4">
          <Flex align="center" gap="3">
            <ExclamationTriangleIcon width={28} height={28} color="var(--red-9)" />
            <Heading size="6">Application Error</Heading>
          </Flex>
          <Text as="p" color="gray">
            Something went wrong. Our team has been notified and is working on a fix.
          </Text>
          <Text as="p" size="2">
            Error ID: <Code>{errorId}</Code>
          </Text>
          {attemptsLeft === 0 && (
            <Text as="p" size="2" color="red">
              No attempts left. Please reload the page.
            </Text>
          )}
          <Flex gap="3" wrap="wrap">
            <Button onClick={onTryAgain} disabled={attemptsLeft === 0}>
              Try Again ({attemptsLeft} {attemptsLeft === 1 ? "attempt" : "attempts"} left)
            </Button>
            <Button variant="soft" onClick={onReload}>
              Reload Page
            </Button>
            <Button variant="outline" color="gray" onClick={onGoToDashboard}>
              Go to Dashboard
            </Button>
          </Flex>
        </Flex>
      </Card>
    </Flex>
  );
}
