// Minimal option parsing for CLI commands: --flag, --name value, --name=value, positionals.
export function parseArgs(argv, { flags = [], options = [] } = {}) {
  const out = { _: [], flags: new Set(), options: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) {
      out._.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (flags.includes(name)) {
      out.flags.add(name);
    } else if (options.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith("--")) throw new Error(`--${name} needs a value`);
      out.options[name] = value;
    } else {
      throw new Error(`unknown option --${name}`);
    }
  }
  return out;
}
