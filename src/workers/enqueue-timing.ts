/**
 * The `Server-Timing` value a webhook sets in local mode: the milliseconds its `enqueue` call
 * took, from the Worker's side (the RPC, the wait for the chat object, its write). The
 * webhook bench splits the ACK into this span and the rest (verification, parsing, routing).
 */
export function enqueueTiming(ms: number): string {
  return `enqueue;dur=${ms.toFixed(2)}`;
}
