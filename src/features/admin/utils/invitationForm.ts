/** Accept-invitation form rules (spec/3 §5), in order; null when the form is valid. */
export type InvitationFormValues = { firstName: string; lastName: string; password: string; confirmPassword: string };

export function validateInvitationForm(v: InvitationFormValues): { title: string; description: string } | null {
  if (!v.firstName.trim()) return { title: "Missing First Name", description: "Please enter your first name." };
  if (!v.lastName.trim()) return { title: "Missing Last Name", description: "Please enter your last name." };
  if (v.password.length < 8)
    return { title: "Password Too Short", description: "Password must be at least 8 characters long." };
  if (v.password !== v.confirmPassword)
    return { title: "Passwords Do Not Match", description: "Please ensure both password fields match." };
  return null;
}
