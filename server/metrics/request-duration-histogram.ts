// http_server_request_duration_seconds, kept so that timing a request costs a few array writes:
// prom-client's own Histogram checks and hashes its labels on every observation, which is most of
// what metrics add to a page request. Observations land in one record per (route, status, method)
// found through two Map lookups by values the request already holds; the registry reads the
// records as a histogram's series (cumulative buckets, +Inf, _sum, _count) when /metrics is
// scraped, in the shape prom-client's own Histogram gives (request-duration-histogram.test.ts
// compares the two).
import type { Metric } from "prom-client";

/** One line of the exposition: a series of the histogram and its value. */
export type Sample = {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
};

/** OpenTelemetry's known HTTP methods; any other is counted as `_OTHER`. */
const KNOWN_METHODS = [
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
  "CONNECT",
] as const;
const OTHER_METHOD = KNOWN_METHODS.length;
const methodIndex = new Map<string, number>(KNOWN_METHODS.map((m, i) => [m, i]));

type Series = { method: string; status: number; counts: Float64Array; sum: number };

export class RequestDurationHistogram {
  readonly name: string;
  readonly help: string;
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly upperBounds: readonly number[];
  /** Route template → (status × methods + method index) → series. */
  private byRoute = new Map<string, Map<number, Series>>();

  constructor(opts: { name: string; help: string; buckets: readonly number[] }) {
    this.name = opts.name;
    this.help = opts.help;
    this.upperBounds = [...opts.buckets].sort((a, b) => a - b);
  }

  /** One answered request: its method as sent, the route template, its status, its seconds. */
  observe(method: string, route: string, status: number, seconds: number) {
    const m = methodIndex.get(method) ?? OTHER_METHOD;
    let statuses = this.byRoute.get(route);
    if (statuses === undefined) this.byRoute.set(route, (statuses = new Map()));
    const key = status * (OTHER_METHOD + 1) + m;
    let series = statuses.get(key);
    if (series === undefined) {
      series = {
        method: m === OTHER_METHOD ? "_OTHER" : KNOWN_METHODS[m]!,
        status,
        counts: new Float64Array(this.upperBounds.length + 1),
        sum: 0,
      };
      statuses.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.upperBounds.length && seconds > this.upperBounds[bucket]!) bucket++;
    series.counts[bucket]! += 1;
    series.sum += seconds;
  }

  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: Sample[];
  }> {
    const values: Sample[] = [];
    for (const [route, statuses] of this.byRoute) {
      for (const series of statuses.values()) {
        const labels = {
          http_request_method: series.method,
          http_route: route,
          http_response_status_code: series.status,
        };
        let cumulative = 0;
        this.upperBounds.forEach((le, i) => {
          cumulative += series.counts[i]!;
          values.push({
            metricName: `${this.name}_bucket`,
            labels: { ...labels, le },
            value: cumulative,
          });
        });
        cumulative += series.counts[this.upperBounds.length]!;
        values.push(
          {
            metricName: `${this.name}_bucket`,
            labels: { ...labels, le: "+Inf" },
            value: cumulative,
          },
          { metricName: `${this.name}_sum`, labels, value: series.sum },
          { metricName: `${this.name}_count`, labels, value: cumulative },
        );
      }
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    });
  }

  reset() {
    this.byRoute = new Map();
  }

  /**
   * What a registry keeps: it reads name, help, type and get() (and reset() when asked), as of
   * any metric; the type names the metric classes prom-client ships, which this stands beside.
   */
  asRegistryMetric(): Metric {
    return this as unknown as Metric;
  }
}
