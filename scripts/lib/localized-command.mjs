// A commander Command that speaks the CLI's language: its parse errors (unknown command or
// option, a missing or excess argument, a value that does not parse) and its help's titles come
// from the catalogue (scripts/cli/i18n) instead of commander's English. commander builds each
// parse error in one overridable method and reports it through `error(message, { code })`, so
// overriding those methods keeps commander's codes, its exitOverride and the exit code 2 the
// entry point gives every parse error; only the words change. Pinned to commander 15
// (package.json); tests/cli/cli-i18n.test.mjs checks each error in both languages.
import { Command, InvalidArgumentError, Option } from "commander";
import { t } from "../cli/i18n/lang.mjs";

const TITLES = {
  "Usage:": "help.usage",
  "Arguments:": "help.arguments",
  "Options:": "help.options",
  "Commands:": "help.commands",
  "Global Options:": "help.globalOptions",
};

/** Edit distance of two short words (a suggestion for a mistyped command or option). */
function distance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** The closest candidates as commander picks them: at most 2 edits, and more alike than not. */
export function similar(word, candidates) {
  const plain = word.replace(/^--/, "");
  let best = [];
  let bestDistance = 3;
  for (const candidate of new Set(candidates)) {
    const name = candidate.replace(/^--/, "");
    const d = distance(plain, name);
    const length = Math.max(plain.length, name.length);
    if (name.length <= 1 || (length - d) / length <= 0.4) continue;
    if (d < bestDistance) {
      bestDistance = d;
      best = [candidate];
    } else if (d === bestDistance) best.push(candidate);
  }
  return best.length === 0 ? "" : t("parse.didYouMean", { names: best.join(t("parse.or")) });
}

export class LocalizedCommand extends Command {
  createCommand(name) {
    return new LocalizedCommand(name);
  }

  /** The help in the chosen language: titles, the help option and command, defaults. */
  localizeHelp() {
    return this.helpOption("-h, --help", t("help.option")).configureHelp({
      styleTitle: (title) => (TITLES[title] ? t(TITLES[title]) : title),
      optionDescription(option) {
        const shown =
          option.defaultValue !== undefined &&
          (option.required || option.optional || typeof option.defaultValue === "boolean");
        if (!shown) return option.description;
        const value = option.defaultValueDescription || JSON.stringify(option.defaultValue);
        return `${option.description ?? ""}${t("help.default", { value })}`.trim();
      },
    });
  }

  /** commander makes the `help` subcommand of a group lazily; it is described here in the chosen language. */
  _getHelpCommand() {
    const help = super._getHelpCommand();
    help?.description(t("help.command"));
    return help;
  }

  missingArgument(name) {
    this.error(t("parse.missingArgument", { name }), { code: "commander.missingArgument" });
  }

  optionMissingArgument(option) {
    this.error(t("parse.optionMissingArgument", { flags: option.flags }), {
      code: "commander.optionMissingArgument",
    });
  }

  missingMandatoryOptionValue(option) {
    this.error(t("parse.mandatoryOption", { flags: option.flags }), {
      code: "commander.missingMandatoryOptionValue",
    });
  }

  unknownOption(flag) {
    if (this._allowUnknownOption) return;
    const flags = [];
    for (let cmd = this; cmd; cmd = cmd.parent)
      for (const o of cmd.createHelp().visibleOptions(cmd)) if (o.long) flags.push(o.long);
    const hint = flag.startsWith("--") ? similar(flag, flags) : "";
    this.error(t("parse.unknownOption", { flag, hint }), { code: "commander.unknownOption" });
  }

  _excessArguments(received) {
    if (this._allowExcessArguments) return;
    this.error(
      t("parse.excessArguments", {
        name: this.name(),
        expected: this.registeredArguments.length,
        received: received.length,
        values: received.join(t("parse.listSeparator")),
      }),
      { code: "commander.excessArguments" },
    );
  }

  unknownCommand() {
    const name = this.args[0];
    const names = this.createHelp()
      .visibleCommands(this)
      .map((c) => c.name());
    this.error(t("parse.unknownCommand", { name, hint: similar(name, names) }), {
      code: "commander.unknownCommand",
    });
  }

  /** A value an option's or argument's parser refused (InvalidArgumentError), in the chosen language. */
  _callParseArg(target, value, previous) {
    try {
      return target.parseArg(value, previous);
    } catch (e) {
      if (!(e instanceof InvalidArgumentError) && e?.code !== "commander.invalidArgument") throw e;
      const message =
        target instanceof Option
          ? t("parse.invalidOption", { flags: target.flags, value, reason: e.message })
          : t("parse.invalidArgument", { name: target.name(), value, reason: e.message });
      this.error(message, { exitCode: e.exitCode, code: "commander.invalidArgument" });
    }
  }
}
