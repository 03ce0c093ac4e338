#!/usr/bin/env bash
# Installs the system packages glcmd's tests and tools need on Debian 12,
# only those that are missing. Idempotent; runs as root (CI) or via sudo.
# `--check` only lists the missing ones (scripts/test.sh, without root or sudo).
set -euo pipefail

packages=(
    # GL through EGL, no window system: libglvnd's loader, Mesa's EGL vendor
    # library and its DRI drivers (llvmpipe = swrast_dri.so), headers.
    libegl1 libegl-mesa0 libgl1-mesa-dri libegl-dev
    # A virtual X server for windowed runs (xvfb-run needs xauth).
    xvfb xauth
    # Recording and replaying GL traces.
    apitrace apitrace-tracers
    valgrind
    # The C ABI's tests compile C and C++ (capi/tests): cc and c++.
    gcc g++ libc6-dev libgl-dev
    # capi/tests/install.rs: the installed library through pkg-config; readelf reads its soname.
    pkgconf binutils
    # tests/adopt.rs makes a GLX context on an X window with Xlib itself: -lX11 (and -lGLX,
    # from libgl-dev's libglx-dev).
    libx11-dev
    # X11 libraries glutin/winit load at run time.
    libx11-6 libx11-xcb1 libxcursor1 libxrandr2 libxi6 libxkbcommon-x11-0
    # run/tests/unchanged.rs generates a C loader with glad2 (PyPI), which pip installs below.
    python3-pip
    # .ci/piglit.sh: Debian's piglit, the GL test suite glcmd is judged by (issue 19); without
    # waffle-utils (wflinfo) piglit takes the GL version for 0.0 and skips most tests.
    piglit waffle-utils
)

# glad2's `glad` command, from PyPI (Debian has only the old glad 0.1): after the packages.
install_glad() {
    if command -v glad >/dev/null 2>&1; then
        return
    fi
    echo "install-deps: installing glad2 (pip)"
    python3 -m pip install --quiet --break-system-packages glad2
}

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

missing=()
for package in "${packages[@]}"; do
    is_installed "$package" || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
    echo "install-deps: all ${#packages[@]} packages present"
    install_glad
    exit 0
fi

if [[ ${1:-} == --check ]]; then
    echo "install-deps: missing ${missing[*]}"
    exit 1
fi
echo "install-deps: installing ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
    sudo=(sudo)
else
    sudo=()
fi
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_glad
