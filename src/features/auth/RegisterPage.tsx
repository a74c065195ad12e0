import { Heading } from "@radix-ui/themes";

export function RegisterPage() {
  return <Heading>Register</Heading>;
}
