/**
 * An identity that failed verification. Convex lets an http action run when its `Authorization`
 * header holds a bad token (the header may be the app's own), and `ctx.auth.getUserIdentity()`
 * then throws the verification error (Identity::Unknown(Some(error)) in Convex's task executor);
 * queries and mutations it calls see no identity. The network layer hands the engine such an
 * identity; the syscalls recognise it.
 */
import type { UserIdentity } from "./engine-api.js";

const errors = new WeakMap<object, string>();

/** A stand-in identity whose `getUserIdentity()` throws `message` (http actions and actions). */
export function unverifiedIdentity(message: string): UserIdentity {
  const identity = Object.freeze({ tokenIdentifier: "", subject: "", issuer: "" });
  errors.set(identity, message);
  return identity;
}

/** The verification error an identity stands for, if it is an unverified one. */
export function identityError(identity: UserIdentity | null | undefined): string | undefined {
  return identity ? errors.get(identity) : undefined;
}
