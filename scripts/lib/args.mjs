// Argument parsing for the owner's CLI, on commander: every command is a commander Command
// built by its module in scripts/cli/. Parse errors (unknown command or option, a missing
// argument, a value that does not parse) exit with code 2 and commander's message; failures
// of the work itself exit with 1, refusals of bad input with 2 (CliError). The parse errors and
// the help speak the chosen language (localized-command.mjs).
import { Command, InvalidArgumentError, Option } from "commander";
import { t } from "../cli/i18n/lang.mjs";
import { LocalizedCommand } from "./localized-command.mjs";

export { Command, Option };

/** A refusal or failure with the exit code it ends the CLI with; printed without a stack. */
export class CliError extends Error {
  /** @param {string} message @param {number} [exitCode] */
  constructor(message, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** A new command that throws instead of exiting, so tests and the entry point decide the exit. */
export function command(name) {
  return new LocalizedCommand(name)
    .localizeHelp()
    .exitOverride()
    .showHelpAfterError(t("args.helpAfterError"))
    .allowExcessArguments(false);
}

/** Option value parser: an integer within [min, max]. */
export function integer(min, max) {
  return (raw) => {
    if (!/^-?[0-9]+$/.test(raw)) throw new InvalidArgumentError(t("args.integer"));
    const n = Number(raw);
    if (n < min || n > max) throw new InvalidArgumentError(t("args.between", { min, max }));
    return n;
  };
}

/** Option value parser: a number within [min, max]. */
export function number(min, max) {
  return (raw) => {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError(t("args.number"));
    if (n < min || n > max) throw new InvalidArgumentError(t("args.between", { min, max }));
    return n;
  };
}

/** Repeatable option: `--collection a --collection b` → ["a", "b"]. */
export const collect = (value, previous = []) => [...previous, value];

/** The options of every command that talks to a Worker's admin API. */
export function withApiOptions(cmd, { json = true } = {}) {
  cmd.option("--url <url>", t("opt.url")).option("--token <token>", t("opt.token"));
  if (json) cmd.option("--json", t("opt.json"));
  return cmd;
}
