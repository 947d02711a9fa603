// Node's process metrics as the server collects them: prom-client's default set, collector by
// collector, all but the one that observes every garbage collection.
import { collectDefaultMetrics, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { collectProcessMetrics } from "./process-metrics.ts";

const names = async (registry: Registry) =>
  (await registry.getMetricsAsJSON()).map((m) => m.name).sort();

describe("process metrics", () => {
  it("are prom-client's default metrics but the histogram of garbage collections", async () => {
    const defaults = new Registry();
    collectDefaultMetrics({ register: defaults });
    const ours = new Registry();
    collectProcessMetrics(ours, 20);
    const expected = (await names(defaults)).filter((n) => n !== "nodejs_gc_duration_seconds");
    expect(await names(ours)).toEqual(expected);
    expect(expected).toContain("nodejs_eventloop_lag_p99_seconds");
    expect(expected).toContain("process_cpu_seconds_total");
    expect(expected).toContain("nodejs_heap_size_used_bytes");
    const text = await ours.metrics();
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).not.toContain("nodejs_gc_duration_seconds");
  });
});
