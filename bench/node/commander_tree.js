// Prints the commander.js program a CLI builds, as JSON: {commands: [{name, aliases, options}], options}.
// Usage: node commander_tree.js COMMANDER_MODULE_DIR CLI_SCRIPT
// The program's parse() is replaced before the CLI is loaded, so no action runs: the objects
// the CLI registered are dumped and the process exits.
const [commanderDir, script] = process.argv.slice(2);
const commander = require(commanderDir);
const Command = commander.Command || commander.constructor;
const spell = (o) => [o.short, o.long].filter(Boolean);
const dump = (cmd) => ({
  name: typeof cmd.name === 'function' ? cmd.name() : cmd._name,
  aliases: cmd._aliases || (cmd._alias ? [cmd._alias] : []),
  options: (cmd.options || []).map(spell),
  commands: (cmd.commands || []).map(dump),
});
Command.prototype.parse = function () {
  process.stdout.write(JSON.stringify(dump(this)) + '\n');
  process.exit(0);
};
process.argv = [process.argv[0], script, '--version'];
require(script);
