/**
 * Runs a benchmark and ends the process once its figures are printed: the embedded backend's
 * scheduled functions, a cancelled paced send or a fake provider's sockets may keep the event loop
 * alive after stop(). A failure is printed and exits with 1.
 */
export function runBench(main: () => Promise<unknown>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
