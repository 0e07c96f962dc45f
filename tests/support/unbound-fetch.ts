/**
 * A fetch that, like workerd's own, throws "Illegal invocation" when called as a method of
 * another object: an adapter that stores `fetch` must call it unbound.
 */
export function unboundFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
    if (this !== undefined && this !== globalThis) throw new TypeError("Illegal invocation");
    return fetch(input, init);
  } as typeof globalThis.fetch;
}
