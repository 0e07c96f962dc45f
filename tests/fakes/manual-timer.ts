/**
 * A timer moved by hand: `after(ms)` resolves once `advance` has moved past it. Lets the
 * fan-out's time budget run out in a test without waiting for anything.
 */
export class ManualTimer {
  #now = 0;
  #waits: { at: number; resolve: () => void }[] = [];
  /** Every wait asked for, in ms. */
  readonly asked: number[] = [];

  readonly after = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      this.asked.push(ms);
      this.#waits.push({ at: this.#now + ms, resolve });
    });

  advance(ms: number): void {
    this.#now += ms;
    const due = this.#waits.filter((w) => w.at <= this.#now);
    this.#waits = this.#waits.filter((w) => w.at > this.#now);
    for (const w of due) w.resolve();
  }
}

/** Lets every promise already settled run its reactions (no timer, no waiting). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

/** A promise the test resolves or rejects by hand. */
export function deferred<T>(): {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
