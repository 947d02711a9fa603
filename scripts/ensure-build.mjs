// `npm start` runs this first: builds each part (site, server) that is missing or whose inputs
// changed. The site goes first, as building it empties build/.
import { execSync } from "node:child_process";
import { isCurrent, PARTS } from "./build-inputs.mjs";

// npm scripts run the Node.js that npm install puts in node_modules/.bin (the node-<os>-<cpu>
// package); on a platform without one they fall back to the system's, which may be too old.
if (Number(process.versions.node.split(".")[0]) < 24) {
  console.error(
    `Revwise needs Node.js 24 and this is ${process.version}: npm install brings it on Linux and macOS (x64, arm64); elsewhere install Node.js 24 LTS.`,
  );
  process.exit(1);
}

for (const name of /** @type {const} */ (["site", "server"])) {
  if (isCurrent(name)) {
    console.log(`The ${name} build is up to date.`);
  } else {
    console.log(`Building the ${name} (first start or changed sources)…`);
    execSync(PARTS[name].command, { stdio: "inherit" });
  }
}
