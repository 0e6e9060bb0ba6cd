#!/usr/bin/env bash
# The wheel people install: build it with PyPI's `build`, install it in a fresh virtual environment
# outside the repository, and use it there: `wrapgen --version`, `wrapgen wrap rg -o DIR`, then
# `wrapgen exec` and the pack's own adapter.py on a file made here. Exit 0 only when every step holds.
#
#   scripts/wheel_smoke.sh            (needs python3 with `build` and venv, rg, and PyPI for the deps)
#
# WHEEL_SMOKE_PYTHON picks the interpreter (default python3); WHEEL_SMOKE_KEEP=1 keeps the temp dir.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${WHEEL_SMOKE_PYTHON:-python3}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/wrapgen-wheel.XXXXXX")"
cleanup() { if [ "${WHEEL_SMOKE_KEEP:-}" = 1 ]; then echo "kept $tmp" >&2; else rm -rf "$tmp"; fi; }
trap cleanup EXIT
fail() { echo "wheel_smoke: FAILED: $*" >&2; exit 1; }
step() { echo "wheel_smoke: $*" >&2; }

command -v rg >/dev/null || fail "rg is not installed (the smoke test wraps it)"
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV

step "building sdist and wheel from $repo (python -m build, into a temp dir)"
# sdist first, then the wheel from the unpacked sdist: a file missing from either shows up here
"$python" -m build --outdir "$tmp/dist" "$repo" >"$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log" >&2; fail "python -m build"; }
wheels=("$tmp"/dist/wrapgen-*.whl)
[ "${#wheels[@]}" -eq 1 ] && [ -f "${wheels[0]}" ] || fail "expected one wheel in $tmp/dist, found: $(ls "$tmp/dist")"
wheel="${wheels[0]}"
step "built $(basename "$wheel")"

step "checking the wheel holds every data file of the package"
"$python" - "$wheel" "$repo" <<'PY' || fail "package data missing from the wheel"
import sys, zipfile
from pathlib import Path
wheel, repo = sys.argv[1], Path(sys.argv[2])
names = set(zipfile.ZipFile(wheel).namelist())
package = repo / "wrapgen"
wanted = sorted(str(p.relative_to(repo)) for p in package.rglob("*")
                if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
missing = [name for name in wanted if name not in names]
for name in missing:
    print("missing from the wheel:", name, file=sys.stderr)
data = [n for n in wanted if n.startswith(("wrapgen/pack/schemas/", "wrapgen/knowledge/data/"))]
if not any(n.endswith(".schema.json") for n in data) or not any(n.startswith("wrapgen/knowledge/data/") for n in data):
    print("no schemas or knowledge data found in the source tree", file=sys.stderr); sys.exit(1)
sys.exit(1 if missing else 0)
PY

step "installing it into a fresh virtual environment"
"$python" -m venv "$tmp/venv" || fail "python -m venv (on Debian: apt-get install python3-venv)"
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check "$wheel" >"$tmp/pip.log" 2>&1 \
    || { tail -30 "$tmp/pip.log" >&2; fail "pip install of the wheel"; }
export PATH="$tmp/venv/bin:$PATH"
export WRAPGEN_CACHE_DIR="$tmp/cache"   # no discovery cache of the user's is read or filled

mkdir "$tmp/work"
cd "$tmp/work"   # outside the repository: nothing can be imported from the source tree

where="$("$tmp/venv/bin/python" -c 'import wrapgen; print(wrapgen.__file__)')"
case "$where" in
    "$tmp/venv/"*) ;;
    *) fail "wrapgen was imported from $where, not from the installed wheel" ;;
esac
[ "$(command -v wrapgen)" = "$tmp/venv/bin/wrapgen" ] || fail "wrapgen on PATH is $(command -v wrapgen)"

version="$(wrapgen --version)" || fail "wrapgen --version exited $?"
[[ "$version" =~ ^wrapgen\ [0-9]+\.[0-9]+\.[0-9]+ ]] || fail "wrapgen --version printed: $version"
step "$version"

step "wrapgen wrap rg -o packs"
wrapgen wrap rg -o packs >"$tmp/wrap.log" 2>&1 || { tail -30 "$tmp/wrap.log" >&2; fail "wrapgen wrap rg"; }
[ -f packs/rg/pack.yaml ] && [ -f packs/rg/binding.json ] && [ -x packs/rg/adapter.py ] || fail "packs/rg is incomplete"

printf 'one line\nthe needle is here\nanother line\n' >haystack.txt

check_envelope() {  # $1: what ran, $2: the envelope printed
    "$tmp/venv/bin/python" - "$1" "$2" <<'PY'
import json, sys
what, text = sys.argv[1], sys.argv[2]
envelope = json.loads(text)
if envelope.get("ok") is not True:
    sys.exit(f"{what}: not ok: {text}")
if "the needle is here" not in json.dumps(envelope["result"]):
    sys.exit(f"{what}: the match is missing from the result: {text}")
PY
}

step "wrapgen exec packs/rg search -- pattern=needle paths=haystack.txt"
out="$(wrapgen exec packs/rg search --json -- pattern=needle paths=haystack.txt)" || fail "wrapgen exec exited $?: $out"
check_envelope "wrapgen exec" "$out" || fail "wrapgen exec"

step "python packs/rg/adapter.py search (the pack's own adapter, with the installed runtime)"
out="$("$tmp/venv/bin/python" packs/rg/adapter.py search --json -- pattern=needle paths=haystack.txt)" || fail "adapter.py exited $?: $out"
check_envelope "adapter.py" "$out" || fail "adapter.py"

step "ok"
