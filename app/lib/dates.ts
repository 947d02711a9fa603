const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function parts(iso: string) {
  const [year, month, day] = iso.split("-").map(Number);
  return { year, month: MONTHS[(month ?? 1) - 1]!, day };
}

/** "2025-03-18" → "Mar 18, 2025" (short month), the same on every machine and time zone. */
export function formatDate(iso: string): string {
  const { year, month, day } = parts(iso);
  return `${month.slice(0, 3)} ${day}, ${year}`;
}

/** "2025-04-28" → "April 28, 2025". */
export function formatLongDate(iso: string): string {
  const { year, month, day } = parts(iso);
  return `${month} ${day}, ${year}`;
}
