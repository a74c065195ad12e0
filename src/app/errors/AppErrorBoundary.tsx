import { Component, type ErrorInfo, type ReactNode } from "react";
import { CrashScreen } from "./CrashScreen";
import { flushErrorReports, reportError } from "./globalErrorHandler";
import { ROUTES } from "@/lib/routes";

const MAX_RETRIES = 3;

type AppErrorBoundaryProps = { children: ReactNode };
type AppErrorBoundaryState = { error: Error | null; errorId: string | null; retries: number };

function newErrorId(): string {
  return `ERR-${Date.now().toString(36).toUpperCase()}-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
}

/** Application-level error boundary: the crash screen with up to 3 retries (spec/1 §4, §8); every crash is reported. */
export class AppErrorBoundary extends Component<AppErrorBoundaryProps, AppErrorBoundaryState> {
  state: AppErrorBoundaryState = { error: null, errorId: null, retries: 0 };

  static getDerivedStateFromError(error: Error): Partial<AppErrorBoundaryState> {
    return { error, errorId: newErrorId() };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    reportError(
      {
        message: error.message || error.name || "Render error",
        stack: error.stack,
        componentStack: info.componentStack ?? undefined,
        errorId: this.state.errorId ?? undefined,
        context: { type: "errorBoundary", retries: this.state.retries },
      },
      true,
    );
  }

  handleTryAgain = () => {
    this.setState((s) => (s.retries >= MAX_RETRIES ? s : { error: null, errorId: null, retries: s.retries + 1 }));
  };

  render() {
    if (this.state.error) {
      return (
        <CrashScreen
          errorId={this.state.errorId ?? ""}
          attemptsLeft={Math.max(0, MAX_RETRIES - this.state.retries)}
          onTryAgain={this.handleTryAgain}
          // Leaving the page would hand the queued report to the beacon, which carries no token.
          onReload={() => void flushErrorReports().finally(() => window.location.reload())}
          onGoToDashboard={() => void flushErrorReports().finally(() => window.location.assign(ROUTES.dashboard))}
        />
      );
    }
    return this.props.children;
  }
}
