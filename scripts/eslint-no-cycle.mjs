// An ESLint rule: no module imports itself back through others, counting every kind of import
// (values, `import type`, `export … from`, dynamic `import()`). import-x's no-cycle skips type
// imports, so a circle made only of them went unseen. Each file's relative imports are read with
// TypeScript's pre-processor (the linted file's from its own text, the others' from disk, cached
// by modification time); a cycle is reported on the import that closes it, with the way back.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const EXTENSIONS = [".ts", ".tsx", ".mjs", ".js"];

/** The file a relative specifier names (as written, or with one of EXTENSIONS), if it exists. */
function resolve(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [base, ...EXTENSIONS.map((e) => base + e)].find((candidate) => {
    try {
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** The files a source imports, each once, in the order written. */
function importsIn(file, source) {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return [...new Set(importedFiles.map((f) => resolve(file, f.fileName)).filter(Boolean))];
}

const cache = new Map();

function importsOf(file) {
  let mtime;
  try {
    mtime = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const known = cache.get(file);
  if (known?.mtime === mtime) return known.imports;
  const imports = importsIn(file, fs.readFileSync(file, "utf8"));
  cache.set(file, { mtime, imports });
  return imports;
}

/** A way from `start` back to `file` (the files in between, `start` first), or undefined. */
function wayBack(start, file) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of importsOf(current)) {
      if (next === file) {
        const way = [];
        for (let at = current; at !== undefined; at = cameFrom.get(at)) way.unshift(at);
        return way;
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, current);
      queue.push(next);
    }
  }
  return undefined;
}

const noCycle = {
  meta: {
    type: "problem",
    docs: { description: "No module imports itself back through others, type imports included" },
    schema: [],
    messages: { cycle: "Dependency cycle: {{way}}" },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!path.isAbsolute(file)) return {};
    const root = context.cwd;
    const check = (node, source) => {
      if (source?.type !== "Literal" || typeof source.value !== "string") return;
      const target = resolve(file, source.value);
      if (target === undefined || target === file) return;
      const way = wayBack(target, file);
      if (way)
        context.report({
          node,
          messageId: "cycle",
          data: { way: [file, ...way, file].map((f) => path.relative(root, f)).join(" → ") },
        });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument),
    };
  },
};

export default { rules: { "no-cycle": noCycle } };
