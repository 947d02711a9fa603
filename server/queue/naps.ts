// The waits of a worker's lanes between claims: each ends after its time, or early when the
// worker is kicked (new rows queued) or stopped.

type Sleeper = { wake: () => void; onKick: boolean };

export class Naps {
  private readonly sleepers = new Set<Sleeper>();

  /**
   * Waits ms (Infinity: until woken); wakeAll() ends every wait, kick() only those taken with
   * onKick (idle lanes).
   */
  sleep(ms: number, onKick: boolean): Promise<void> {
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        onKick,
        wake: () => {
          clearTimeout(timer);
          this.sleepers.delete(sleeper);
          resolve();
        },
      };
      const timer = Number.isFinite(ms) ? setTimeout(sleeper.wake, ms).unref() : undefined;
      this.sleepers.add(sleeper);
    });
  }

  kick() {
    for (const sleeper of this.sleepers) if (sleeper.onKick) sleeper.wake();
  }

  wakeAll() {
    for (const sleeper of this.sleepers) sleeper.wake();
  }
}
