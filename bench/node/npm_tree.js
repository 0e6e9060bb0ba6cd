// Prints npm's own command objects as JSON: {command: {aliases, flags: [[spelling...]], negations}}.
// Usage: node npm_tree.js NPM_DIR
// The commands come from lib/utils/cmd-list.js, each command class's static `params` names its
// configs, and @npmcli/config's definitions give each config's short spelling and type.
const path = require('path');
const npmDir = process.argv[2];
const { commands, aliases } = require(path.join(npmDir, 'lib/utils/cmd-list.js'));
const { definitions } = require(path.join(npmDir, 'node_modules/@npmcli/config/lib/definitions/index.js'));
const out = {};
for (const name of commands) {
  let Cmd;
  try { Cmd = require(path.join(npmDir, 'lib/commands', name + '.js')); } catch (e) { continue; }
  const flags = [];
  const negations = [];
  for (const param of Cmd.params || []) {
    const def = definitions[param];
    const spellings = ['--' + param];
    if (def && def.short) [].concat(def.short).forEach((s) => spellings.push('-' + s));
    // the definition's usage spells the forms help shows: "-S|--save|--no-save|--save-prod|..."
    const usage = (def && def.usage) || '';
    for (const s of Array.from(usage.matchAll(/(?:^|[\s|\[])(--?[A-Za-z0-9][\w-]*)/g), (m) => m[1])) {
      if (!spellings.includes(s) && !s.startsWith('--no-')) spellings.push(s);
      else if (s.startsWith('--no-') && !negations.includes(s)) negations.push(s);
    }
    flags.push(spellings);
    const types = def ? [].concat(def.type) : [];
    if (types.includes(Boolean)) negations.push('--no-' + param);
  }
  out[name] = {
    aliases: Object.keys(aliases || {}).filter((a) => aliases[a] === name),
    flags, negations,
  };
}
// npm takes every config on any command line: all their spellings
const every = [];
for (const [name, def] of Object.entries(definitions)) {
  every.push('--' + name);
  if (def.short) [].concat(def.short).forEach((s) => every.push('-' + s));
}
// what npm's completion offers as operand values rather than subcommands: config keys (`npm get`),
// semver's release types (`npm version`), the globally installed packages (`npm link`)
let releases = [];
try { releases = require(path.join(npmDir, 'node_modules/semver')).RELEASE_TYPES || []; } catch (e) { }
let globals = [];
try { globals = require('fs').readdirSync(path.dirname(npmDir)); } catch (e) { }
const values = Object.keys(definitions).concat(releases, globals);
process.stdout.write(JSON.stringify({ commands: out, configs: every, values }) + '\n');
