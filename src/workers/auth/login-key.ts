/**
 * The dashboard's signing key, derived from ADMIN_TOKEN with HKDF: rotating the token ends
 * every session, and the token itself never signs anything (nor leaves the Worker).
 */
const encoder = new TextEncoder();

/** One derivation per isolate and token; HKDF is cheap but the key object is reusable. */
const keys = new Map<string, Promise<CryptoKey>>();

export function loginKey(adminToken: string): Promise<CryptoKey> {
  let key = keys.get(adminToken);
  if (!key) {
    key = (async () => {
      const material = await crypto.subtle.importKey("raw", encoder.encode(adminToken), "HKDF", false, [
        "deriveKey",
      ]);
      return crypto.subtle.deriveKey(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: encoder.encode("akasha/admin"),
          info: encoder.encode("dashboard session v1"),
        },
        material,
        { name: "HMAC", hash: "SHA-256", length: 256 },
        false,
        ["sign", "verify"],
      );
    })();
    keys.clear(); // a rotated token leaves no stale key behind
    keys.set(adminToken, key);
  }
  return key;
}

export function base64url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

export async function hmac(key: CryptoKey, text: string): Promise<string> {
  return base64url(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
}

/** HMAC verification by the runtime, which compares in constant time. */
export async function hmacMatches(key: CryptoKey, text: string, signature: string): Promise<boolean> {
  const bytes = fromBase64url(signature);
  if (!bytes) return false;
  return crypto.subtle.verify("HMAC", key, bytes, encoder.encode(text));
}
