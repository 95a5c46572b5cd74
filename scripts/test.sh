#!/bin/sh
# The tests, exactly as CI runs them (.ci/run calls this script):
#   1. the Python lock file (requirements-dev.txt, exact versions and hashes);
#   2. Debian's chromium, chromium-driver and the emoji font for the browser tests, when
#      /usr/bin/chromium, /usr/bin/chromedriver or the font is missing and we are root with apt-get (quietly; the package
#      lists are refreshed only if the install cannot find the packages without it);
#      otherwise one sentence, and the browser tests skip (they fail when CI is set);
#   3. ruff, then pytest with this script's arguments (sh scripts/test.sh -k web ...).
set -eu
cd "$(dirname "$0")/.."

python -m pip install -q -r requirements-dev.txt

emoji=/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ] || [ ! -f "$emoji" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        export DEBIAN_FRONTEND=noninteractive
        log="${TMPDIR:-/tmp}/darwin-chromium-install.log"
        start=$(date +%s)
        install="apt-get install -y -q --no-install-recommends chromium chromium-driver fonts-noto-color-emoji"
        if $install >"$log" 2>&1 || { apt-get update -q >>"$log" 2>&1 && $install >>"$log" 2>&1; }; then
            echo "scripts/test.sh: installed chromium, chromium-driver and the emoji font in $(( $(date +%s) - start )) s."
        else
            echo "scripts/test.sh: could not install chromium with apt-get (see $log); the browser tests will be skipped (under CI they fail)."
        fi
    else
        echo "scripts/test.sh: /usr/bin/chromium is missing and cannot be installed here (needs root and apt-get); the browser tests will be skipped (under CI they fail)."
    fi
fi

python -m ruff check .
exec python -m pytest "$@"
