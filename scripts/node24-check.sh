#!/usr/bin/env bash
# Node 24 check: installs this work tree into a throw-away copy under Node 24 (from the npm registry's
# node-<platform>-<arch> package, which ships bin/node and include/node) and runs the Node-side tests
# there. The checkout's own node_modules (built for the machine's Node 20) are not touched.
#
#   bash scripts/node24-check.sh            the 'sandbox', 'server' and 'tooling' projects (contract/, sandbox/,
#                                           bench/; server/; scripts/) but the static checks (below) + an
#                                           `npm start` smoke (scripts/start-smoke.ts)
#   NODE24_UNIT=1 bash scripts/node24-check.sh   ... + the 'unit' project (src/, happy-dom)
#   NODE24_SPEC=24.21.0 ...                 another version (default: the newest 24.x)
#   NODE24_KEEP=1 ...                       keep the temporary folder (its path is printed)
#
# Why nodedir: better-sqlite3 (under @hocuspocus/extension-sqlite) has no reachable prebuilt binary here,
# so it compiles with node-gyp. node-gyp takes its headers from npm's `nodedir`, which this machine's
# ~/.npmrc sets to /usr (Node 20's headers); left so, `npm ci` under Node 24 succeeds but builds a module
# for Node 20 (NODE_MODULE_VERSION 115) that Node 24 (137) refuses to load. Without any nodedir, node-gyp
# would try to download headers, which this network does not allow. The registry package's own include/
# is the right one, so npm_config_nodedir points at it.
#
# Not run here, since nothing in them depends on the Node version and `npm test` runs them on Node 20: the
# typecheck (the lock's TypeScript and @types/node, so the same program and the same answer on any Node;
# about a minute) and the tests of the lint and dead-code configuration (lint-zones, lint-locale,
# knip-check: ESLint, tsc and knip run over fixed text; about 55 s), and the pure computation and the bench
# smoke named where vitest runs (about 95 s of tests). What can differ stays: the install and
# its native modules, the sandbox, the team-space server and the `npm start` server, and the smoke.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
spec="${NODE24_SPEC:-24}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/node24-check.XXXXXX")"
if [ "${NODE24_KEEP:-0}" = 1 ]; then
  echo "[node24-check] keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT
fi

timings=()
step() {
  local name="$1"
  shift
  local t0=$SECONDS
  echo "[node24-check] >>> $name"
  "$@"
  local took=$((SECONDS - t0))
  timings+=("$(printf '%-28s %4ds' "$name" "$took")")
  echo "[node24-check] <<< $name: ${took}s"
}

fetch_node() {
  local platform arch
  platform="$(uname -s | tr '[:upper:]' '[:lower:]')"
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "unsupported machine $(uname -m)" >&2 && return 1 ;;
  esac
  mkdir -p "$tmp/pack" "$tmp/node"
  # npm pack runs no install script (the `node` package's preinstall would run `npm install` itself).
  local tarball
  tarball="$(cd "$tmp/pack" && npm pack --silent "node-$platform-$arch@$spec")"
  tar -xzf "$tmp/pack/$tarball" -C "$tmp/node" --strip-components=1
  rm -rf "$tmp/pack"
  [ -f "$tmp/node/include/node/node_version.h" ] || { echo "no include/node in $tarball" >&2 && return 1; }
}

copy_tree() {
  # The work tree as it is (tracked and untracked files, not ignored ones: no node_modules, dist, .git).
  mkdir -p "$tmp/src"
  (cd "$repo" && git ls-files -z -co --exclude-standard | tar --null --ignore-failed-read -cf - -T - 2>/dev/null) |
    tar -xf - -C "$tmp/src"
}

check_native() {
  # Fails here, with the real reason, rather than in the team-space tests.
  node -e "
    const Database = require('better-sqlite3');
    const v = new Database(':memory:').prepare('select sqlite_version() as v').get().v;
    console.log('better-sqlite3 loads under node ' + process.version + ' (ABI ' + process.versions.modules + '), SQLite ' + v);
    require('sharp');
    console.log('sharp loads');
  "
}

step "fetch node@$spec" fetch_node
export PATH="$tmp/node/bin:$PATH"
export npm_config_nodedir="$tmp/node"
export JOBS="${JOBS:-max}" # node-gyp's parallel make
echo "[node24-check] node $(node --version) from $(command -v node), npm $(npm --version), nodedir $npm_config_nodedir"
[ "$(node -p 'process.versions.node.split(".")[0]')" = 24 ] || { echo "not Node 24 on PATH" >&2 && exit 1; }

step "copy work tree" copy_tree
cd "$tmp/src"
step "npm ci" npm ci --no-audit --no-fund
step "native modules load" check_native
static_checks=(--exclude scripts/lint-zones.test.ts --exclude scripts/lint-locale.test.ts --exclude scripts/knip-check.test.ts)
# Computation alone, the same on any Node (property runs over the referee and the sandbox's rules, the
# catalogs' messages), and the bench smoke (its servers are the ones the other tests start): about 95 s
# of the step's 345 s of tests, run by npm test on Node 20.
pure=(--exclude server/team-space/fuzz.test.ts --exclude sandbox/test/property.test.ts
  --exclude scripts/i18n/catalogs.test.ts --exclude bench/bench-smoke.test.ts)
step "vitest --project sandbox --project server --project tooling" npx vitest run --project sandbox --project server \
  --project tooling "${static_checks[@]}" "${pure[@]}"
if [ "${NODE24_UNIT:-0}" = 1 ]; then
  step "vitest --project unit" npx vitest run --project unit
fi
step "npm start smoke" npx tsx scripts/start-smoke.ts

echo "[node24-check] Node $(node --version): all steps passed"
printf '[node24-check]   %s\n' "${timings[@]}"
