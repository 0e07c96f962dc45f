// Progress bars (cli-progress) for long work: on a terminal only, and never with --json, so
// scripts read clean output. `unit` names what is counted, a catalogue key (`progress.unit.*`).
import cliProgress from "cli-progress";
import { t } from "./i18n/lang.mjs";

export function progressBar(options, unit, stream = process.stderr) {
  if (options.json || !stream.isTTY) return { update() {}, increment() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      format: t("progress.format", { unit: t(`progress.unit.${unit}`) }),
      stream,
      hideCursor: true,
      clearOnComplete: false,
    },
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
