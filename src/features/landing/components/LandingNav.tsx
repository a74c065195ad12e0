import { Button, Flex, Text } from "@radix-ui/themes";

type LandingNavProps = { onLogin(): void; onRegister(): void };

/** Home, Features, Pricing (scroll anchors), Login and Register (spec/3 §2.3); on a phone the links wrap under the name. */
export function LandingNav({ onLogin, onRegister }: LandingNavProps) {
  const link = { color: "var(--gray-12)", textDecoration: "none", fontSize: 14 } as const;
  return (
    <Flex
      asChild
      align="center"
      justify="between"
      wrap="wrap"
      gap="3"
      px={{ initial: "4", sm: "5" }}
      py="3"
      style={{
        position: "sticky",
        top: 0,
        zIndex: 10,
        background: "var(--color-panel-solid)",
        borderBottom: "1px solid var(--gray-a5)",
      }}
    >
      <header>
        <Flex align="center" gap="2">
          <img src="/favicon.svg" alt="" width={26} height={26} />
          <Text weight="bold" size="5">
            Precinct
          </Text>
        </Flex>
        <Flex asChild gap={{ initial: "4", sm: "5" }} align="center" wrap="wrap">
          <nav aria-label="Landing">
            <a href="#home" style={link}>
              Home
            </a>
            <a href="#features" style={link}>
              Features
            </a>
            <a href="#pricing" style={link}>
              Pricing
            </a>
            <Button variant="ghost" onClick={onLogin}>
              Login
            </Button>
            <Button onClick={onRegister}>Register</Button>
          </nav>
        </Flex>
      </header>
    </Flex>
  );
}
