import { Dialog, Text } from "@radix-ui/themes";
import { RegisterForm } from "./RegisterForm";

type RegisterModalProps = { open: boolean; onOpenChange(open: boolean): void; onLogin(): void };

/** The landing page's register modal; after sign-up the landing page sends the user to the dashboard. */
export function RegisterModal({ open, onOpenChange, onLogin }: RegisterModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="480px" aria-describedby="register-modal-description">
        <Dialog.Title>Create your account</Dialog.Title>
        <Dialog.Description id="register-modal-description" size="2" color="gray" mb="4">
          Your organisation is created with you as its administrator.
        </Dialog.Description>
        <RegisterForm variant="modal" onRegistered={() => onOpenChange(false)} />
        <Text as="p" size="2" align="center" color="gray" mt="3">
          Already have an account?{" "}
          <a
            href="#login"
            onClick={(e) => {
              e.preventDefault();
              onLogin();
            }}
          >
            Sign in
          </a>
        </Text>
      </Dialog.Content>
    </Dialog.Root>
  );
}
