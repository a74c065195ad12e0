/** The security function tests share the function tests' setup (convex-local maps `./setup` to setup.local.ts). */
export * from "../../convex/setup";
