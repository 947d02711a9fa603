// Rows as CSV (RFC 4180): a header line, then one line per row; a value with a comma, quote or
// line break is quoted. Text a visitor typed that a spreadsheet would run as a formula (starting
// with = + - @, a tab or a carriage return) is prefixed with an apostrophe (OWASP's advice).
const FORMULA = /^[=+\-@\t\r]/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text =
    value instanceof Date
      ? value.toISOString()
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);
  if (typeof value === "string" && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: unknown[]) => `${values.map(cell).join(",")}\r\n`;
