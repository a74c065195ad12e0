import "@radix-ui/themes/styles.css";
import "./app/global.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppProviders } from "./app/AppProviders";
import { installGlobalErrorHandler } from "./app/errors/globalErrorHandler";

installGlobalErrorHandler();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <AppProviders />
  </StrictMode>,
);
