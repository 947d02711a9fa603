// What each part of the build depends on, hashed: `npm start` rebuilds a part only when its
// inputs changed. The site comes first: `react-router build` empties build/, the server's part too.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const PARTS = {
  site: {
    command: "npm run build:site",
    output: "build/client/index.html",
    stamp: "build/.site-inputs",
    inputs: [
      "app",
      "common",
      "public",
      "package-lock.json",
      "vite.config.ts",
      "react-router.config.ts",
      "tsconfig.json",
    ],
    envPrefix: "VITE_",
  },
  server: {
    command: "npm run build:server",
    output: "build/backend/server.mjs",
    stamp: "build/backend/.inputs",
    inputs: ["server", "common", "package-lock.json", "scripts/build-server.ts"],
    envPrefix: undefined,
  },
};

/** @param {keyof typeof PARTS} name */
export function inputsHash(name, root = process.cwd()) {
  const part = PARTS[name];
  const hash = crypto.createHash("sha256");
  /** @param {string} rel */
  const visit = (rel) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    const stat = fs.statSync(abs);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(abs).sort())
        if (!entry.endsWith(".test.ts") && !entry.endsWith(".test.tsx"))
          visit(path.join(rel, entry));
      return;
    }
    hash.update(rel).update("\0").update(fs.readFileSync(abs)).update("\0");
  };
  for (const input of part.inputs) visit(input);
  if (part.envPrefix)
    for (const [k, v] of Object.entries(process.env).sort())
      if (k.startsWith(part.envPrefix)) hash.update(`${k}=${v}\0`);
  return hash.digest("hex");
}

/** @param {keyof typeof PARTS} name */
export function isCurrent(name) {
  const { output, stamp } = PARTS[name];
  return (
    fs.existsSync(output) &&
    fs.existsSync(stamp) &&
    fs.readFileSync(stamp, "utf8") === inputsHash(name)
  );
}

/** @param {keyof typeof PARTS} name */
export function writeStamp(name) {
  fs.writeFileSync(PARTS[name].stamp, inputsHash(name));
}
