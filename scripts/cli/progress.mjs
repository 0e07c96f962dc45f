// Progress bars (cli-progress) for long work: on a terminal only, and never with --json, so
// scripts read clean output.
import cliProgress from "cli-progress";

export function progressBar(options, unit, stream = process.stderr) {
  if (options.json || !stream.isTTY) return { update() {}, increment() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { format: `{bar} {value}/{total} ${unit}`, stream, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(value, total) {
      if (!started) {
        bar.start(total, value);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(value);
      }
    },
    increment(by = 1) {
      if (started) bar.increment(by);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
