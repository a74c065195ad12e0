import { Heading } from "@radix-ui/themes";

export function ResetPasswordPage() {
  return <Heading>Reset password</Heading>;
}
