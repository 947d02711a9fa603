// Node's process and event-loop metrics: prom-client's default set, each collector as it ships,
// all but the histogram of garbage collections' durations (nodejs_gc_duration_seconds). That one
// observes every collection (a PerformanceObserver on "gc"), which cost 1–3 % of a page request's
// CPU under load on the 2-core VM (decision 0047); the heap's series and the event loop's lag
// already show what collections do to the server. Nothing runs per request; each collector reads
// the process when /metrics is scraped (the event loop's delay is sampled by Node itself).
import { createRequire } from "node:module";
import { collectDefaultMetrics, type Registry } from "prom-client";

/** The default collectors left out, by prom-client's names. */
const LEFT_OUT = ["gc"];

type Collector = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void;

const require = createRequire(import.meta.url);

/** Registers the collectors in `registry`, sampling the event loop's delay every `precisionMs`. */
export function collectProcessMetrics(registry: Registry, precisionMs: number) {
  for (const name of collectDefaultMetrics.metricsList) {
    if (LEFT_OUT.includes(name)) continue;
    const collector = require(`prom-client/lib/metrics/${name}.js`) as Collector;
    collector(registry, { eventLoopMonitoringPrecision: precisionMs });
  }
}
