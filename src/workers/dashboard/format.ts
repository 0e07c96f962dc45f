/** Small display helpers shared by the pages. */
export const formatTime = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return "—";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A date input's value (`YYYY-MM-DD`) as UTC midnight, or undefined. */
export function dayStart(value: string | undefined): number | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The text cut to `n` characters (code points), with "…" when it was longer. */
export const clip = (text: string, n: number) =>
  [...text].length > n ? `${[...text].slice(0, n).join("")}…` : text;
