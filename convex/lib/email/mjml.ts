/**
 * The MJML compiler shared by the builder's preview and size meter (browser) and the server's
 * sends (Convex's default runtime): mjml-browser, MJML's pure-JavaScript build (no Node APIs).
 */
import mjml2html from "mjml-browser";
import type { MjmlCompiler } from "./render";

export const compileMjml: MjmlCompiler = async (mjml, options) => await mjml2html(mjml, options);
