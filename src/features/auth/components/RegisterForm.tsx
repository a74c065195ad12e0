import { Button, Flex, Grid } from "@radix-ui/themes";
import { useState, type FormEvent } from "react";
import { useAppAuth } from "@/session/AppAuth";
import { toast } from "@/ui/toast";
import { registrationErrorMessage, validateRegistration, type RegistrationValues } from "../utils/authMessages";
import { FormError } from "./FormError";
import { FormField } from "./FormField";

type RegisterFormProps = { variant: "modal" | "page"; onRegistered(): void };

const EMPTY: RegistrationValues = { firstName: "", lastName: "", email: "", password: "", confirmPassword: "" };

/** Registration (spec/3 §2.4, §5): creates the account and the user's organisation, then signs in. */
export function RegisterForm({ variant, onRegistered }: RegisterFormProps) {
  const { signUp } = useAppAuth();
  const [values, setValues] = useState<RegistrationValues>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const set = (key: keyof RegistrationValues) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const prefix = `register-${variant}`;

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = validateRegistration(values, variant);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await signUp({
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        email: values.email.trim().toLowerCase(),
        password: values.password,
      });
      toast.success("Account Created Successfully", { description: "Welcome to the product! You are now logged in." });
      onRegistered();
    } catch (err) {
      setError(registrationErrorMessage(err));
      toast.failure("Error Creating Account", err, { description: registrationErrorMessage(err) });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Flex direction="column" gap="3">
        <FormError message={error} />
        <Grid columns="2" gap="3">
          <FormField
            id={`${prefix}-first`}
            label="First Name"
            autoComplete="given-name"
            value={values.firstName}
            onChange={set("firstName")}
          />
          <FormField
            id={`${prefix}-last`}
            label="Last Name"
            autoComplete="family-name"
            value={values.lastName}
            onChange={set("lastName")}
          />
        </Grid>
        <FormField
          id={`${prefix}-email`}
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set("email")}
        />
        <FormField
          id={`${prefix}-password`}
          label="Password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set("password")}
        />
        <FormField
          id={`${prefix}-confirm`}
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={set("confirmPassword")}
        />
        <Button type="submit" size="3" loading={submitting}>
          Create Account
        </Button>
      </Flex>
    </form>
  );
}
