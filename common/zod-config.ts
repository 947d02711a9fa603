// In browsers, zod must not probe `new Function` for its JIT: our Content-Security-Policy forbids
// eval, and the probe alone is reported as a violation. zod decides when a schema is defined, so
// every schema module imports this first. (The server keeps the JIT.)
import { config } from "zod";

if (typeof document !== "undefined") config({ jitless: true });
