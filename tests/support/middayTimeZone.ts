/**
 * A time zone where it is now between noon and 1 pm (an `Etc/GMT±N` zone). Texts keep to federal
 * 8 am–9 pm and state quiet hours in the recipient's zone whatever the organisation's sending hours
 * (convex/lib/sms/quietHours.ts): tests and benchmarks that must see messages go out at any hour
 * of the day send to recipients in this zone (the organisation's default zone, no state or ZIP).
 */
export function middayTimeZone(now = Date.now()): string {
  const offset = 12 - new Date(now).getUTCHours(); // hours ahead of UTC, -11 … +12
  // Etc/GMT names count the other way: Etc/GMT-5 is five hours ahead of UTC
  return offset === 0 ? "Etc/GMT" : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}
