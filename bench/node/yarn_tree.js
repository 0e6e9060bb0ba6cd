// Prints what yarn v1's own objects say about one command, as JSON:
// {commands: [names], options: [[spelling...]], usage: "..."}.
// Usage: node yarn_tree.js YARN_CLI_JS [COMMAND]
// yarn's lib/cli.js is one webpack bundle: it is loaded with its module loader kept, so the
// command table and the bundled commander can be reached; commander's parse() is replaced before
// yarn's main() runs, so main() registers the global flags and COMMAND's setFlags(), and the
// program is dumped instead of run.
const fs = require('fs');
const path = require('path');
const Module = require('module');
const [cliPath, commandName] = process.argv.slice(2);
let src = fs.readFileSync(cliPath, 'utf8');
const entry = 'return __webpack_require__(__webpack_require__.s = ';
if (!src.includes(entry)) throw new Error('not the yarn bundle this script knows');
src = src.replace(entry, 'globalThis.__yarnRequire = __webpack_require__; ' + entry);
// the bundle runs yarn itself when nothing required it first: it must not here
const auto = 'var autoRun = exports.autoRun = module.children.length === 0;';
if (!src.includes(auto)) throw new Error('cannot keep this yarn bundle from running');
src = src.replace(auto, 'var autoRun = exports.autoRun = false;');
const starts = 'if (__webpack_require__.c[__webpack_require__.s] === module) {';
if (!src.includes(starts)) throw new Error('cannot keep this yarn bundle from starting');
src = src.replace(starts, 'if (false) {');
const mod = new Module(cliPath, null);
mod.filename = cliPath;
mod.paths = Module._nodeModulePaths(path.dirname(cliPath));
mod._compile(src, cliPath);
const cli = mod.exports;
const loaded = Object.values(globalThis.__yarnRequire.c).map((m) => m.exports);
const isCommander = (e) => e && typeof e.Command === 'function' && typeof e.option === 'function';
let commander = loaded.find(isCommander);
for (let id = 0; !commander && id < globalThis.__yarnRequire.m.length; id++) {
  const text = String(globalThis.__yarnRequire.m[id]);
  if (text.includes('Command.prototype.option = function')) {
    const e = globalThis.__yarnRequire(id);
    if (isCommander(e)) commander = e;
  }
}
// the command table (src/cli/commands/index.js): the module that defines generateLockEntry and
// upgradeInteractive among its keys
const wr = globalThis.__yarnRequire;
const isTable = (e) => e && e.access && e.add && e.cache && typeof e.add.setFlags === 'function';
let table = loaded.find(isTable);
for (let id = 0; !table && id < wr.m.length; id++) {
  const text = String(wr.m[id]);
  if (text.includes('generateLockEntry') && text.includes('upgradeInteractive') && text.includes('access')) {
    const e = wr(id);
    if (isTable(e)) table = e;
    else if (e && isTable(e.default)) table = e.default;
  }
}
const spell = (o) => [o.short, o.long].filter(Boolean);
if (!commandName) {
  // a command yarn itself marks `useless` (dedupe, lockfile, prune) only says it is not needed
  const names = Object.keys(table).filter((name) => !table[name].useless);
  process.stdout.write(JSON.stringify({ commands: names }) + '\n');
  process.exit(0);
}
commander.Command.prototype.parse = function () {
  process.stdout.write(JSON.stringify({ options: this.options.map(spell), usage: this._usage || '' }) + '\n');
  process.exit(0);
};
cli.main({ startArgs: [process.execPath, cliPath], args: [commandName], endArgs: [] });
