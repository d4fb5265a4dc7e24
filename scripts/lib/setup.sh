# Shared set-up for scripts/: installs the Debian packages okit needs when they are missing.
# Sourced, not run. Everything it prints goes to stderr, so scripts can keep stdout for their output.

okit_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# ensure_packages PKG... — apt-get install the packages that are not installed yet.
ensure_packages() {
    local missing=()
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "okit: installing ${missing[*]} (apt-get)…" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
            echo "okit: missing packages ${missing[*]}; run as root or install them: apt-get install -y ${missing[*]}" >&2
            return 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! $sudo apt-get install -y -qq "${missing[@]}" >&2 2>&1; then
        $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq "${missing[@]}" >&2
    fi
}

# require_swift — a clear message when the Swift toolchain is not on PATH.
require_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        for d in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
            [ -x "$d/swift" ] && export PATH="$d:$PATH" && return 0
        done
        echo "okit: the Swift toolchain (swift) is not on PATH; install Swift 6 and try again" >&2
        return 1
    fi
}

# The packages every build needs (spec/README.md "Set-up").
okit_build_packages=(liblua5.4-dev libedit-dev pkg-config zlib1g-dev libcurl4-openssl-dev libsqlite3-dev sqlite3)
