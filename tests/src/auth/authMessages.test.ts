import { ConvexError } from "convex/values";
import { describe, expect, test } from "vitest";
import { CODE_REFUSED } from "@convex/lib/errors";
import {
  isCodeRefused,
  LOGIN_MESSAGES,
  loginErrorMessage,
  resetErrorMessage,
  validateNewPassword,
  validateRegistration,
} from "@/features/auth/utils/authMessages";
import { PLANS, USAGE_PRICES } from "@/features/landing/landingContent";

const ok = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.org",
  password: "secret1",
  confirmPassword: "secret1",
};

describe("registration validation (spec/3 §5)", () => {
  test("the modal's wording", () => {
    expect(validateRegistration({ ...ok, lastName: " " }, "modal")).toBe("All fields are required");
    expect(validateRegistration({ ...ok, confirmPassword: "secret2" }, "modal")).toBe("Passwords do not match");
    expect(validateRegistration({ ...ok, password: "abc", confirmPassword: "abc" }, "modal")).toBe(
      "Password must be at least 6 characters",
    );
    expect(validateRegistration(ok, "modal")).toBeNull();
  });
  test("the page's wording", () => {
    expect(validateRegistration({ ...ok, email: "" }, "page")).toBe("Please fill in all fields");
    expect(validateRegistration({ ...ok, confirmPassword: "x" }, "page")).toBe("Passwords do not match");
    expect(validateRegistration({ ...ok, password: "abc", confirmPassword: "abc" }, "page")).toBe(
      "Password should be at least 6 characters",
    );
  });
  test("reset form", () => {
    expect(validateNewPassword("", "")).toBe("Please fill in all fields");
    expect(validateNewPassword("abcdef", "abcdeg")).toBe("Passwords do not match");
    expect(validateNewPassword("abc", "abc")).toBe("Password must be at least 6 characters");
    expect(validateNewPassword("abcdef", "abcdef")).toBeNull();
  });
});

describe("login error mapping (spec/3 §8)", () => {
  test("Convex Auth's credential errors read as invalid email or password", () => {
    expect(loginErrorMessage(new Error("[CONVEX A(auth:signIn)] Server Error Uncaught Error: InvalidAccountId"))).toBe(
      LOGIN_MESSAGES.invalid,
    );
    expect(loginErrorMessage(new Error("Uncaught Error: InvalidSecret at retrieveAccount"))).toBe(
      "Invalid email or password. Please try again.",
    );
    expect(loginErrorMessage(new Error("TooManyFailedAttempts"))).toBe(LOGIN_MESSAGES.tooMany);
    // What the server answers now, for an unknown email and a wrong password alike, and when throttled.
    expect(loginErrorMessage(new ConvexError({ code: "UNAUTHORIZED", message: LOGIN_MESSAGES.invalid }))).toBe(
      LOGIN_MESSAGES.invalid,
    );
    expect(
      loginErrorMessage(new ConvexError({ code: "RATE_LIMIT", message: `${LOGIN_MESSAGES.tooMany} (retry in 5 s)` })),
    ).toBe(LOGIN_MESSAGES.tooMany);
    expect(loginErrorMessage(new TypeError("Failed to fetch"))).toBe(
      "Network error. Please check your connection and try again.",
    );
    expect(loginErrorMessage(new Error("something else"))).toBe("Login failed");
    expect(resetErrorMessage(new Error("Invalid code"))).toBe("Invalid or expired recovery link");
    // A wrong or used code: the server's clear refusal, as it is.
    const refused = new ConvexError({ code: "VALIDATION_ERROR", message: CODE_REFUSED });
    expect(resetErrorMessage(refused)).toBe("That code is wrong or has expired. Request a new code.");
    expect(isCodeRefused(refused)).toBe(true);
    expect(isCodeRefused(new Error("Invalid code"))).toBe(false);
  });
});

describe("landing pricing (spec/3 §9.2) and upcoming areas", () => {
  test("plans and usage prices", () => {
    expect(PLANS.map((p) => [p.name, p.price])).toEqual([
      ["Essential", 99],
      ["Professional", 249],
      ["Enterprise", 499],
    ]);
    expect(PLANS.find((p) => p.popular)?.name).toBe("Professional");
    expect(PLANS[2].cta).toBe("Contact Sales");
    expect(PLANS[0].features).toEqual([
      "5,000 voter records",
      "500 SMS per month",
      "2,000 emails per month",
      "3 active forms",
      "1 user",
    ]);
    expect(USAGE_PRICES.map((u) => u.price)).toEqual(["$0.02", "$0.005"]);
  });
});
