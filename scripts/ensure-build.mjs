// `npm start` runs this first: builds each part (site, server) that is missing or whose inputs
// changed. The site goes first, as building it empties build/.
import { execSync } from "node:child_process";
import { isCurrent, PARTS } from "./build-inputs.mjs";

for (const name of /** @type {const} */ (["site", "server"])) {
  if (isCurrent(name)) {
    console.log(`The ${name} build is up to date.`);
  } else {
    console.log(`Building the ${name} (first start or changed sources)…`);
    execSync(PARTS[name].command, { stdio: "inherit" });
  }
}
