import "@radix-ui/themes/styles.css";
import "./app/global.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppProviders } from "./app/AppProviders";
import { installGlobalErrorHandler } from "./app/errors/globalErrorHandler";
import { ROUTES } from "./lib/routes";
import { hasServiceWorker, registerServiceWorker } from "./lib/serviceWorker";

installGlobalErrorHandler();

// The canvasser's offline app (issue 38): its pages install the service worker (a page reached
// later in the session registers it itself); where one already serves, it is kept up to date.
if (location.pathname.startsWith(ROUTES.canvass) || hasServiceWorker()) void registerServiceWorker();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <AppProviders />
  </StrictMode>,
);
