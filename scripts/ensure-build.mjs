// `npm start` runs this first: builds the site when there is no build or its inputs changed.
import { execSync } from "node:child_process";
import fs from "node:fs";
import { inputsHash, STAMP } from "./build-inputs.mjs";

const hash = inputsHash();
const current =
  fs.existsSync("build/client/index.html") &&
  fs.existsSync(STAMP) &&
  fs.readFileSync(STAMP, "utf8") === hash;
if (current) {
  console.log("Site build is up to date.");
} else {
  console.log("Building the site (first start or changed sources)…");
  execSync("npm run build", { stdio: "inherit" });
}
