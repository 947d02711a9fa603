// Waiting for something another process does (a worker, a second server): read it every 50 ms
// until it is as expected, and fail with what was last read once the time is up.

/** Reads until `done` holds for the value read, and returns that value. */
export async function readUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`not as expected after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until `check` answers true. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000) {
  await readUntil(check, Boolean, timeoutMs);
}
