/** HTTP actions: Convex Auth's OIDC/JWKS routes and the client error-report endpoint. */
import { httpRouter } from "convex/server";
import { auth } from "./auth";
import { errorReportOptions, reportErrors } from "./errorReports";

const http = httpRouter();
auth.addHttpRoutes(http);
http.route({ path: "/api/errors", method: "POST", handler: reportErrors });
http.route({ path: "/api/errors", method: "OPTIONS", handler: errorReportOptions });

export default http;
