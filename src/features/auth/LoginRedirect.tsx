import { Heading } from "@radix-ui/themes";

export function LoginRedirect() {
  return <Heading>Login</Heading>;
}
