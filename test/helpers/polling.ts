/**
 * Reads until `done` holds of what was read, or `timeoutMs` has passed; returns the last value read either way, so
 * the caller's assertion names what is wrong. For what a test sees only some time after it acts (a workflow's
 * query, a callback count, a position).
 */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
