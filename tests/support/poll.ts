// Waiting for something another process does (a worker, a second server): read it every 50 ms
// until it is as expected, and fail with what was last read once the time is up.

/**
 * Reads until `done` holds for the value read, and returns that value. Once the time is up, the
 * error says `explain(value)` of the last value (by default, the value).
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
  explain: (value: T) => string = (value) => JSON.stringify(value),
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`not as expected after ${timeoutMs} ms: ${explain(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until `check` answers true; `explain` says what was seen instead. */
export async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs = 15_000,
  explain?: () => string,
) {
  await readUntil(check, Boolean, timeoutMs, explain);
}
