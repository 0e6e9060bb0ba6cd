// Prints the yargs command modules a CLI registers, as JSON: [{command, options: [[spelling...]], boolean: [...]}].
// Usage: node yargs_tree.js YARGS_MODULE_DIR COMMANDS_DIR
// Each module in COMMANDS_DIR exporting a class with `command` and `builder` is instantiated and
// its builder run on a fresh yargs instance, whose getOptions() says what it defined.
const fs = require('fs');
const path = require('path');
const [yargsDir, commandsDir] = process.argv.slice(2);
let yargs = require(yargsDir);
yargs = yargs.default || yargs;
const out = [];
for (const file of fs.readdirSync(commandsDir).sort()) {
  if (!file.endsWith('.js')) continue;
  const mod = require(path.join(commandsDir, file));
  for (const Exported of Object.values(mod)) {
    if (typeof Exported !== 'function') continue;
    let cmd;
    try { cmd = new Exported(); } catch (e) { continue; }
    if (typeof cmd.command !== 'string' || typeof cmd.builder !== 'function') continue;
    const y = yargs([]);
    cmd.builder(y);
    const o = y.getOptions();
    const options = o.key ? Object.keys(o.key) : [];
    const spell = (k) => (k.length === 1 ? '-' : '--') + k;
    out.push({
      command: cmd.command,
      options: options.map((k) => [k, ...(o.alias[k] || [])].map(spell)),
      boolean: (o.boolean || []).concat(o.count || []).map(spell),
    });
  }
}
process.stdout.write(JSON.stringify(out) + '\n');
