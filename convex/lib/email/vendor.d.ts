/** mjml-browser publishes no types: the compiler as lib/email/render.ts calls it (MjmlCompiler). */
declare module "mjml-browser" {
  const mjml2html: (
    mjml: string,
    options?: Record<string, unknown>,
  ) => Promise<{ html: string; errors: Array<{ message: string; formattedMessage?: string }> }>;
  export default mjml2html;
}
