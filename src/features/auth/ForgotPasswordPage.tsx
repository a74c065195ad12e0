import { Heading } from "@radix-ui/themes";

export function ForgotPasswordPage() {
  return <Heading>Forgot password</Heading>;
}
