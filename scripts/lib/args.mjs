// Argument parsing for the owner's CLI, on commander: every command is a commander Command
// built by its module in scripts/cli/. Parse errors (unknown command or option, a missing
// argument, a value that does not parse) exit with code 2 and commander's message; failures
// of the work itself exit with 1, refusals of bad input with 2 (CliError).
import { Command, InvalidArgumentError, Option } from "commander";

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
  return new Command(name)
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .allowExcessArguments(false);
}

/** Option value parser: an integer within [min, max]. */
export function integer(min, max) {
  return (raw) => {
    if (!/^-?[0-9]+$/.test(raw)) throw new InvalidArgumentError(`must be an integer`);
    const n = Number(raw);
    if (n < min || n > max) throw new InvalidArgumentError(`must be between ${min} and ${max}`);
    return n;
  };
}

/** Option value parser: a number within [min, max]. */
export function number(min, max) {
  return (raw) => {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError("must be a number");
    if (n < min || n > max) throw new InvalidArgumentError(`must be between ${min} and ${max}`);
    return n;
  };
}

/** Repeatable option: `--collection a --collection b` → ["a", "b"]. */
export const collect = (value, previous = []) => [...previous, value];

/** The options of every command that talks to a Worker's admin API. */
export function withApiOptions(cmd, { json = true } = {}) {
  cmd
    .option("--url <url>", "the Worker's URL (AKASHA_URL; default the local http://localhost:8787)")
    .option("--token <token>", "admin token (prefer AKASHA_ADMIN_TOKEN in the environment)");
  if (json) cmd.option("--json", "print JSON for scripts instead of text");
  return cmd;
}
