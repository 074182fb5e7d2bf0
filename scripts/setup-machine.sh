#!/usr/bin/env bash
# What `npm test` needs from the machine besides node_modules: the three browsers (Chromium for Playwright,
# Firefox ESR and WebKitGTK's WebDriver under Xvfb for the other engines' journeys), redis-server and
# PostgreSQL (the team space's cluster test starts them), ffmpeg (the sandbox's video and audio are checked
# with the system's ffmpeg as well as the bundled one, and WebKitGTK plays them through GStreamer's libav) and
# fonts for screenshots.
#
# Missing pieces are installed with apt-get when this runs as root on Debian (or with sudo that needs no
# password); otherwise it stops at once and prints the exact command to run. A browser given by its override
# (CHROMIUM_PATH, FIREFOX_PATH, WEBKIT_DRIVER_PATH) counts as present; docs/testing.md lists the overrides.
#
#   bash scripts/setup-machine.sh          install what is missing (or say how)
#   bash scripts/setup-machine.sh --check  only say what is missing; exit 1 if anything is
set -euo pipefail

check_only=0
[ "${1:-}" = --check ] && check_only=1

missing=()
need() { # need <debian package> <test that passes when present>
  local package="$1"
  shift
  "$@" >/dev/null 2>&1 || missing+=("$package")
}
need chromium test -x "${CHROMIUM_PATH:-/usr/bin/chromium}"
need firefox-esr test -x "${FIREFOX_PATH:-/usr/bin/firefox-esr}"
need webkit2gtk-driver test -x "${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}"
need xvfb command -v Xvfb
need redis-server command -v redis-server
need postgresql compgen -G '/usr/lib/postgresql/*/bin/postgres'
need ffmpeg command -v ffmpeg
# WebKitGTK plays H.264 (the sandbox's MP4) through GStreamer's libav plugin.
need gstreamer1.0-libav compgen -G '/usr/lib/*/gstreamer-1.0/libgstlibav.so'
need fonts-dejavu-core test -d /usr/share/fonts/truetype/dejavu
need fonts-liberation test -d /usr/share/fonts/truetype/liberation
# Recipes written into downloaded files are read back by readers that share no code with ours.
need libimage-exiftool-perl command -v exiftool
need python3-pil /usr/bin/python3 -c 'import PIL'

if [ ${#missing[@]} -eq 0 ]; then
  echo "[setup-machine] browsers, servers and ffmpeg present"
  exit 0
fi

command_line="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$check_only" = 1 ]; then
  echo "[setup-machine] missing: ${missing[*]}" >&2
  exit 1
fi

if command -v apt-get >/dev/null; then
  apt=()
  if [ "$(id -u)" = 0 ]; then
    apt=(apt-get)
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    apt=(sudo -n DEBIAN_FRONTEND=noninteractive apt-get)
  fi
  if [ ${#apt[@]} -gt 0 ]; then
    echo "[setup-machine] installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${apt[@]}" update
    "${apt[@]}" install -y --no-install-recommends "${missing[@]}"
    exit 0
  fi
fi

cat >&2 <<EOF
[setup-machine] the tests need: ${missing[*]}
Run, as root on Debian or Ubuntu:

  $command_line

Elsewhere, install the equivalents, or point the tests at browsers you have with
CHROMIUM_PATH, FIREFOX_PATH, WEBKIT_DRIVER_PATH and WEBKIT_MINIBROWSER_PATH (docs/testing.md).
EOF
exit 1
