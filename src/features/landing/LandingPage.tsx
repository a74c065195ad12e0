import { Box, Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import {
  BarChartIcon,
  ChatBubbleIcon,
  EnvelopeClosedIcon,
  FileTextIcon,
  LockClosedIcon,
  PersonIcon,
  SewingPinFilledIcon,
} from "@radix-ui/react-icons";
import { Navigate, useLocation, useSearchParams } from "react-router-dom";
import { useAppAuth } from "@/session/AppAuth";
import { LoginModal, RegisterModal } from "@/features/auth";
import { PricingSection } from "./components/PricingSection";
import { LandingNav } from "./components/LandingNav";
import { FEATURES, STEPS } from "./landingContent";
import { ROUTES } from "@/lib/routes";

const FEATURE_ICONS = [
  PersonIcon,
  ChatBubbleIcon,
  EnvelopeClosedIcon,
  FileTextIcon,
  SewingPinFilledIcon,
  LockClosedIcon,
];

/** The public landing page (spec/3 §2.3). ?login=true opens the login modal; signed-in users go on to the app. */
export function LandingPage() {
  const { isAuthenticated, isLoading } = useAppAuth();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const loginOpen = params.get("login") === "true";
  const registerOpen = params.get("register") === "true";

  if (!isLoading && isAuthenticated) {
    const from = (location.state as { from?: unknown } | null)?.from;
    const target = typeof from === "string" && from.startsWith("/") && !from.startsWith("//") ? from : ROUTES.dashboard;
    return <Navigate to={target} replace />;
  }

  // Keep the remembered origin (location.state) while the modals open and close.
  const open = (which: "login" | "register" | null) =>
    setParams(which ? { [which]: "true" } : {}, { replace: true, state: location.state });

  return (
    <Box>
      <LandingNav onLogin={() => open("login")} onRegister={() => open("register")} />
      <Box
        id="home"
        px="5"
        py="9"
        style={{ background: "linear-gradient(180deg, var(--accent-a3), transparent)", scrollMarginTop: 64 }}
      >
        <Flex direction="column" align="center" gap="4" style={{ maxWidth: 820, margin: "0 auto" }}>
          <Heading size={{ initial: "8", sm: "9" }} align="center">
            Organise every voter. Reach every supporter.
          </Heading>
          <Text size="5" color="gray" align="center">
            Precinct is the real-time campaign and voter-relationship platform for campaign staff, volunteers and
            organisation administrators.
          </Text>
          <Flex gap="3" mt="3">
            <Button size="4" onClick={() => open("register")}>
              Get Started
            </Button>
            <Button size="4" variant="soft" onClick={() => open("login")}>
              Login
            </Button>
          </Flex>
        </Flex>
      </Box>

      <Box id="features" px="5" py="9" style={{ scrollMarginTop: 64 }}>
        <Heading size={{ initial: "7", sm: "8" }} align="center" mb="2">
          Everything your campaign needs
        </Heading>
        <Text as="p" color="gray" align="center" mb="6">
          Six tools, one live workspace for your whole team.
        </Text>
        <Grid columns={{ initial: "1", sm: "2", md: "3" }} gap="4" style={{ maxWidth: 1080, margin: "0 auto" }}>
          {FEATURES.map((f, i) => {
            const Icon = FEATURE_ICONS[i] ?? BarChartIcon;
            return (
              <Card key={f.title} size="3">
                <Flex direction="column" gap="2">
                  <Icon width={24} height={24} color="var(--accent-9)" />
                  <Heading size="4">{f.title}</Heading>
                  <Text size="2" color="gray">
                    {f.text}
                  </Text>
                </Flex>
              </Card>
            );
          })}
        </Grid>
      </Box>

      <Box px="5" py="9" style={{ background: "var(--gray-a2)" }}>
        <Heading size={{ initial: "7", sm: "8" }} align="center" mb="6">
          Up and running in three steps
        </Heading>
        <Grid columns={{ initial: "1", md: "3" }} gap="5" style={{ maxWidth: 1080, margin: "0 auto" }}>
          {STEPS.map((s, i) => (
            <Flex key={s.title} direction="column" gap="2" align="center">
              <Flex
                align="center"
                justify="center"
                style={{ width: 44, height: 44, borderRadius: "50%", background: "var(--accent-9)", color: "white" }}
              >
                <Text weight="bold" size="4">
                  {i + 1}
                </Text>
              </Flex>
              <Heading size="4" align="center">
                {s.title}
              </Heading>
              <Text size="2" color="gray" align="center">
                {s.text}
              </Text>
            </Flex>
          ))}
        </Grid>
      </Box>

      <PricingSection onChoose={() => open("register")} />

      <Box asChild px="5" py="6" style={{ borderTop: "1px solid var(--gray-a5)" }}>
        <footer>
          <Flex justify="between" align="center" wrap="wrap" gap="3" style={{ maxWidth: 1080, margin: "0 auto" }}>
            <Text size="2" color="gray">
              © {new Date().getFullYear()} Precinct. Built for campaigns and advocacy organisations.
            </Text>
            <Flex gap="4">
              <a href="#features" style={{ color: "var(--gray-11)", fontSize: 14 }}>
                Features
              </a>
              <a href="#pricing" style={{ color: "var(--gray-11)", fontSize: 14 }}>
                Pricing
              </a>
              <a
                href={ROUTES.signIn}
                onClick={(e) => {
                  e.preventDefault();
                  open("login");
                }}
                style={{ color: "var(--gray-11)", fontSize: 14 }}
              >
                Login
              </a>
            </Flex>
          </Flex>
        </footer>
      </Box>

      <LoginModal open={loginOpen} onOpenChange={(o) => open(o ? "login" : null)} />
      <RegisterModal
        open={registerOpen}
        onOpenChange={(o) => open(o ? "register" : null)}
        onLogin={() => open("login")}
      />
    </Box>
  );
}
