// `npm run dev`: the API server (restarting on change) beside Vite's dev server for the site.
// The browser talks to Vite on PORT; Vite proxies /auth/v1, /rest/v1, /functions/v1 to the API.
import { spawn, type ChildProcess } from "node:child_process";
import { loadConfig } from "../server/config.ts";
import { loadKeys } from "../server/security/keys.ts";

const config = loadConfig({ NODE_ENV: "development", ...process.env });
const apiPort = config.port + 1;
const keys = await loadKeys({ jwtSecret: config.jwtSecret, dataDir: config.dataDir });
const env = {
  ...process.env,
  NODE_ENV: "development",
  SITE_URL: config.siteUrl,
  VITE_ANON_KEY: keys.anonKey,
  API_ORIGIN: `http://127.0.0.1:${apiPort}`,
};

const children: ChildProcess[] = [
  spawn(process.execPath, ["--watch-path=server", "--watch-path=common", "server/server.ts"], {
    stdio: "inherit",
    env: { ...env, PORT: String(apiPort), HOST: "127.0.0.1" },
  }),
  spawn(
    "npx",
    ["react-router", "dev", "--port", String(config.port), "--host", config.host, "--strictPort"],
    { stdio: "inherit", env },
  ),
];

const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children)
  child.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
