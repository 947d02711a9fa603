// What the site build depends on, hashed: `npm start` rebuilds only when this changes.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const INPUTS = [
  "app",
  "common",
  "public",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];

export const STAMP = "build/.inputs-hash";

export function inputsHash(root = process.cwd()) {
  const hash = crypto.createHash("sha256");
  const visit = (rel) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    const stat = fs.statSync(abs);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort())
        if (!name.endsWith(".test.ts") && !name.endsWith(".test.tsx")) visit(path.join(rel, name));
      return;
    }
    hash.update(rel).update("\0").update(fs.readFileSync(abs)).update("\0");
  };
  for (const input of INPUTS) visit(input);
  for (const [k, v] of Object.entries(process.env).sort())
    if (k.startsWith("VITE_")) hash.update(`${k}=${v}\0`);
  return hash.digest("hex");
}
