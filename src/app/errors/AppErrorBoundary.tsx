import type { ReactNode } from "react";

export function AppErrorBoundary({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
