// A chore an instance does on its own clock (a digest, a cleanup): run after each interval, one
// run at a time, never after stop; stop waits for a run in progress. The chore reports its own
// failures: one that throws is run again at the next interval.
export class Chore {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly run: () => Promise<void>;
  private readonly intervalMs: number;

  constructor(run: () => Promise<void>, intervalMs: number) {
    this.run = run;
    this.intervalMs = intervalMs;
  }

  /** Runs now, then after every interval. */
  start() {
    this.stopped = false;
    this.running = this.run()
      .catch(() => {})
      .finally(() => this.schedule());
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.run()
        .catch(() => {})
        .finally(() => this.schedule());
    }, this.intervalMs).unref();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
