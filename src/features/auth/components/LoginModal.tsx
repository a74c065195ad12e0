import { Dialog } from "@radix-ui/themes";
import { LoginForm } from "./LoginForm";

type LoginModalProps = { open: boolean; onOpenChange(open: boolean): void };

/** The landing page's login modal (opened by ?login=true). Navigation after sign-in is the landing page's job. */
export function LoginModal({ open, onOpenChange }: LoginModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="420px" aria-describedby="login-modal-description">
        <Dialog.Title>Sign in to Precinct</Dialog.Title>
        <Dialog.Description id="login-modal-description" size="2" color="gray" mb="4">
          Welcome back. Enter your email and password.
        </Dialog.Description>
        <LoginForm onNavigate={() => onOpenChange(false)} />
      </Dialog.Content>
    </Dialog.Root>
  );
}
