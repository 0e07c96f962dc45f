/** The admin token compared in constant time; the guards that use it live in auth/. */

const encoder = new TextEncoder();

/** Hashing first gives equal-length inputs, so the comparison leaks neither content nor length. */
export async function tokensMatch(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(given)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  return crypto.subtle.timingSafeEqual(a, b);
}
