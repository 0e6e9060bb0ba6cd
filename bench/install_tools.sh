#!/usr/bin/env bash
# Install the pack benchmark's tools (bench/data/tools.json) on a Debian 12 machine, as root.
#
#     bash bench/install_tools.sh            # everything
#     bash bench/install_tools.sh --dry-run  # print what it would install (the tools not on PATH)
#     bash bench/install_tools.sh --all      # print every tool's package, installed or not
#
# Each tool's "install" names where it comes from: apt:PKG, pip:PKG, npm:PKG, or image:PKG for what
# this project's machine image ships and no registry reachable here serves (gcloud, bq, gsutil and
# terraform: Google's and HashiCorp's own apt repositories are not reachable); "a|b" gives a
# fallback. Only tools not on PATH are installed. Not part of CI's .ci/run. PyPI packages go into a
# virtual environment each under /opt/wrapgen-bench (BENCH_VENVS to change it). Whatever fails to
# install is listed at the end; the benchmark reports such a tool as not installed.
set -u
cd "$(dirname "$0")/.."
DRY=${1:-}
VENVS=${BENCH_VENVS:-/opt/wrapgen-bench}

lists=$(python3 - "$DRY" <<'EOF'
import json, shutil, sys
apt, pip, npm, image = set(), set(), set(), set()
for tool in json.load(open("bench/data/tools.json"))["tools"]:
    if shutil.which(tool["bin"]) and "--all" not in sys.argv:
        continue  # already here
    for source in tool["install"].split("|"):
        kind, _, name = source.partition(":")
        {"apt": apt, "pip": pip, "npm": npm, "image": image}[kind].add(name)
        if kind != "image":
            break  # the first registry source is the one to use; image: falls back to the next
print(" ".join(sorted(apt)))
print(" ".join(sorted(pip)))
print(" ".join(sorted(npm)))
print(" ".join(sorted(image)))
EOF
)
APT=$(sed -n 1p <<<"$lists")
PIP=$(sed -n 2p <<<"$lists")
NPM=$(sed -n 3p <<<"$lists")
IMAGE=$(sed -n 4p <<<"$lists")

if [ "$DRY" = "--dry-run" ] || [ "$DRY" = "--all" ]; then
    printf 'apt: %s\npip: %s\nnpm: %s\nimage only: %s\n' "$APT" "$PIP" "$NPM" "$IMAGE"
    exit 0
fi

failed=()
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# services some packages would start (fail2ban, supervisor, prometheus...) are not started
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
# node and npm from Debian only where the machine has none (NodeSource's nodejs conflicts with them)
command -v npm >/dev/null || APT="$APT nodejs npm"
# one apt-get for all: fast; on a failure, one at a time, to name the package that failed
# shellcheck disable=SC2086
if ! apt-get install -y -q --no-install-recommends $APT python3-venv >/dev/null; then
    for pkg in $APT; do
        apt-get install -y -q --no-install-recommends "$pkg" >/dev/null 2>&1 || failed+=("apt:$pkg")
    done
fi
rm -f /usr/sbin/policy-rc.d

# each PyPI package in a virtual environment of its own (as pipx does), so that the tools'
# dependencies never fight each other or the system's Python; its commands linked into /usr/local/bin
# four at a time: one by one, the 26 packages took over 50 minutes on a busy 2-core machine
export VENVS
# shellcheck disable=SC2016,SC2086
pip_failed=$(printf '%s\n' $PIP | xargs -P 4 -I{} sh -c \
    '{ python3 -m venv "$VENVS/{}" && "$VENVS/{}/bin/pip" install -q "{}"; } >/dev/null 2>&1 || echo "pip:{}"')
# shellcheck disable=SC2206
failed+=($pip_failed)
python3 - "$VENVS" <<'EOF'
import json, os, sys
venvs = sys.argv[1]
for tool in json.load(open("bench/data/tools.json"))["tools"]:
    kind, _, pkg = tool["install"].split("|")[0].partition(":")
    target = os.path.join(venvs, pkg, "bin", tool["bin"])
    link = os.path.join("/usr/local/bin", tool["bin"])
    if kind == "pip" and os.path.exists(target) and not os.path.lexists(link):
        os.symlink(target, link)
EOF

for pkg in $NPM; do
    npm install -g --silent "$pkg" >/dev/null 2>&1 || failed+=("npm:$pkg")
done

for name in $IMAGE; do
    echo "comes with the machine image, not from a registry reachable here: $name"
done
python3 - <<'EOF'
import json, shutil
missing = [t["tool"] for t in json.load(open("bench/data/tools.json"))["tools"] if not shutil.which(t["bin"])]
print("tools not on PATH:", ", ".join(missing) if missing else "none")
EOF
if [ ${#failed[@]} -gt 0 ]; then
    echo "failed to install: ${failed[*]}"
    exit 1
fi
