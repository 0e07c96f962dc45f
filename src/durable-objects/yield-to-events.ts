/**
 * Lets the object's event loop run whatever waits (an `enqueue` RPC, above all) before the
 * caller goes on. A macrotask, not a microtask: a resolved promise would run the caller's
 * continuation first and keep the waiting event behind it.
 */
export function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
