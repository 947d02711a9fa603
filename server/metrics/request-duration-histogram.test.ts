// The request-duration histogram exposes what prom-client's own Histogram would for the same
// observations: the same series, labels and values, in the registry's text format.
import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestDurationHistogram } from "./request-duration-histogram.ts";

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const NAME = "http_server_request_duration_seconds";

/** The exposition's sample lines, label order aside, sorted (HELP and TYPE lines kept as they are). */
function samples(text: string): string[] {
  return text
    .trim()
    .split("\n")
    .map((line) => {
      const match = /^([^{ ]+)\{([^}]*)\} (.+)$/.exec(line);
      if (!match) return line;
      const labels = match[2]!.split(/,(?=[a-z_]+=")/).sort();
      return `${match[1]}{${labels.join(",")}} ${match[3]}`;
    })
    .sort();
}

describe("the request-duration histogram", () => {
  it("exposes the series prom-client's Histogram exposes for the same observations", async () => {
    const ours = new RequestDurationHistogram({ name: NAME, help: "Durations", buckets: BUCKETS });
    const oursRegistry = new Registry();
    oursRegistry.registerMetric(ours.asRegistryMetric());
    const theirsRegistry = new Registry();
    const theirs = new Histogram({
      name: NAME,
      help: "Durations",
      labelNames: ["http_request_method", "http_route", "http_response_status_code"],
      buckets: BUCKETS,
      registers: [theirsRegistry],
    });

    const observations: [string, string, number, number][] = [
      ["GET", "/*", 200, 0.0004],
      ["GET", "/*", 200, 0.005], // on a bound: counted in that bucket
      ["GET", "/*", 304, 0.02],
      ["GET", "/*", 200, 11], // above the last bound: +Inf only
      ["POST", "/rest/v1/:table", 201, 0.3],
      ["BREW", "unmatched", 404, 0.001],
      ["PROPFIND", "unmatched", 404, 0.002],
      ["GET", "unmatched", 404, 0.0],
    ];
    for (const [method, route, status, seconds] of observations) {
      ours.observe(method, route, status, seconds);
      theirs.observe(
        {
          http_request_method: ["BREW", "PROPFIND"].includes(method) ? "_OTHER" : method,
          http_route: route,
          http_response_status_code: status,
        },
        seconds,
      );
    }
    const text = await oursRegistry.metrics();
    expect(samples(text)).toEqual(samples(await theirsRegistry.metrics()));
    expect(text).toContain(`# TYPE ${NAME} histogram`);
    expect(text).not.toMatch(/BREW|PROPFIND/);

    ours.reset();
    expect(samples(await oursRegistry.metrics())).toEqual([
      `# HELP ${NAME} Durations`,
      `# TYPE ${NAME} histogram`,
    ]);
  });
});
