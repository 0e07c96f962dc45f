/**
 * A stand-in for one outside endpoint: fetches of `url` are answered by `answer`, every other
 * fetch goes out as it would. The spy is undone by vi.restoreAllMocks().
 */
import { vi } from "vitest";

export function standInFor(
  url: string,
  answer: (init: RequestInit | undefined) => Promise<Response> | Response,
) {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const asked = input instanceof Request ? input.url : String(input);
    return asked === url ? answer(init) : real(input, init);
  });
}
