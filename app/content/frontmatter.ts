// Splits a markdown file into its frontmatter (flat `key: value` lines) and body.
// Values may be quoted; the caller validates the fields with zod.

export function parseFrontmatter(source: string): { data: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new Error("missing frontmatter (a --- block at the top of the file)");
  const data: Record<string, string> = {};
  for (const [i, line] of match[1]!.split(/\r?\n/).entries()) {
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const kv = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (!kv) throw new Error(`frontmatter line ${i + 1} is not "key: value": ${line}`);
    data[kv[1]!] = unquote(kv[2]!.trim());
  }
  return { data, body: match[2]! };
}

function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) {
    const inner = value.slice(1, -1);
    return value[0] === '"'
      ? inner.replace(/\\"/g, '"').replace(/\\\\/g, "\\")
      : inner.replace(/''/g, "'");
  }
  return value;
}
