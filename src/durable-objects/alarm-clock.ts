/**
 * The object's one alarm, mirrored in memory so that enqueue can decide without an awaited
 * getAlarm(): with no await between the inbox write and setAlarm, both commit as one durable
 * write before the webhook is answered.
 */
export class AlarmClock {
  readonly #storage: DurableObjectStorage;
  #at: number | null = null;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  /** Reads the stored alarm once, when the object starts. */
  async load(): Promise<void> {
    this.#at = await this.#storage.getAlarm();
  }

  /** The alarm fired: none is pending any more. */
  fired(): void {
    this.#at = null;
  }

  /** Sets the alarm to `at` unless one at or before `at` is already set. */
  async ensureBy(at: number): Promise<void> {
    if (this.#at !== null && this.#at <= at) return;
    this.#at = at;
    await this.#storage.setAlarm(at);
  }
}
