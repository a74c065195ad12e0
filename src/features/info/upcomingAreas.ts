/** Areas whose issues come in later releases, by route (the honest placeholder names the area). */
export const UPCOMING_AREAS: { prefix: string; name: string; text: string }[] = [
  { prefix: "/cta-creator", name: "CTA Creator", text: "Designing call-to-action graphics on a canvas." },
  { prefix: "/cta-database", name: "CTA Database", text: "Managing your saved call-to-action graphics." },
];

export function upcomingAreaFor(pathname: string) {
  return UPCOMING_AREAS.find((a) => pathname === a.prefix || pathname.startsWith(`${a.prefix}/`)) ?? { prefix: pathname, name: "This area", text: "" };
}
