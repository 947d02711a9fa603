// `npm run keys`: the API keys of this deployment (the same DATA_DIR or JWT_SECRET as the server):
// the public anon key, and the service-role key that the admin API (/auth/v1/admin) requires.
// The service-role key is a secret like JWT_SECRET: keep it on servers and in operators' tools.
import { loadConfig } from "../server/config.ts";
import { loadKeys } from "../server/security/keys.ts";

const config = loadConfig({ NODE_ENV: "development", ...process.env });
const keys = await loadKeys({ jwtSecret: config.jwtSecret, dataDir: config.dataDir });
console.log(`anon key:         ${keys.anonKey}`);
console.log(`service-role key: ${keys.serviceRoleKey}`);
