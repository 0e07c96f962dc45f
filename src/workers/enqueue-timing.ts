/**
 * The `Server-Timing` value a webhook sets in local mode: the milliseconds its `enqueue` call
 * took, from the Worker's side (the RPC, the wait for the chat object, its write), and the
 * ACK's trace — epoch milliseconds when the Worker began the request (`entry`), called
 * `enqueue` (`enq0`) and the call returned (`enq1`). The webhook bench lines these up with its
 * own send and receive times to say where an ACK waited.
 * (The runtime's clock moves only between events, so each stamp is when that step began.)
 */
export type AckTrace = { entry: number; enqueueStart: number; enqueueEnd: number };

export function enqueueTiming(ms: number, trace?: AckTrace): string {
  const span = `enqueue;dur=${ms.toFixed(2)}`;
  if (!trace) return span;
  return `${span}, ack;desc="entry=${trace.entry} enq0=${trace.enqueueStart} enq1=${trace.enqueueEnd}"`;
}
