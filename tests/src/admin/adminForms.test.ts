import { describe, expect, test } from "vitest";
import { detectCardBrand, expiryYears, lastFour } from "@/features/admin/utils/cardBrand";
import { validateInvitationForm } from "@/features/admin/utils/invitationForm";

describe("card helpers", () => {
  test("brand from prefix, last four, ten expiry years", () => {
    expect(
      [
        "4242424242424242",
        "5555 5555 5555 4444",
        "2223003122003222",
        "378282246310005",
        "6011111111111117",
        "3056930009020004",
        "3530111333300000",
        "6200000000000005",
        "9999",
      ].map(detectCardBrand),
    ).toEqual(["visa", "mastercard", "mastercard", "amex", "discover", "diners", "jcb", "unionpay", "unknown"]);
    expect(lastFour("4242 4242 4242 1234")).toBe("1234");
    expect(expiryYears(new Date(2026, 0, 1))).toEqual([
      "2026",
      "2027",
      "2028",
      "2029",
      "2030",
      "2031",
      "2032",
      "2033",
      "2034",
      "2035",
    ]);
  });
});

describe("invitation form", () => {
  const ok = { firstName: "A", lastName: "B", password: "12345678", confirmPassword: "12345678" };
  test("messages in the spec's order", () => {
    expect(validateInvitationForm(ok)).toBeNull();
    expect(validateInvitationForm({ ...ok, firstName: " " })?.title).toBe("Missing First Name");
    expect(validateInvitationForm({ ...ok, lastName: "" })).toEqual({
      title: "Missing Last Name",
      description: "Please enter your last name.",
    });
    expect(validateInvitationForm({ ...ok, password: "1234567", confirmPassword: "1234567" })?.description).toBe(
      "Password must be at least 8 characters long.",
    );
    expect(validateInvitationForm({ ...ok, confirmPassword: "12345679" })?.title).toBe("Passwords Do Not Match");
  });
});
