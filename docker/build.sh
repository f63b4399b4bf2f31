#!/usr/bin/env bash
# The commands of the Docker image's stages, in one place: the Dockerfile runs them, and CI runs
# the same ones outside Docker (.ci/package-check), so the image's recipe is built on every CI run
# even where no Docker engine exists.
#
#   docker/build.sh build-deps                  install the build stage's Debian packages
#   docker/build.sh build SRC BUILD DESTDIR     configure (/usr), build, install (stripped) into DESTDIR
#   docker/build.sh runtime-packages            print the runtime stage's packages
#   docker/build.sh runtime-deps                install them (runtime stage)
#   docker/build.sh check-runtime DESTDIR       each library the binary links is in that list
set -euo pipefail

build_packages=(
  build-essential cmake ninja-build pkg-config ccache
  libasio-dev libpugixml-dev libspdlog-dev libfmt-dev libcli11-dev nlohmann-json3-dev
  libpfm4-dev libelf-dev zlib1g-dev libbabeltrace2-dev libsystemd-dev libdivide-dev
)
# Only what the binary links (apt brings their own dependencies), plus libpfm4, which it loads
# with dlopen while it detects PMUs (collectors/pmu/libpfm.hpp), and bash for the health check.
runtime_packages=(
  libstdc++6 libgcc-s1 libc6
  libspdlog1.10 libfmt9 libpugixml1v5 libpfm4 libelf1 zlib1g libbabeltrace2-0 libsystemd0
  bash
)

apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

case "${1:-}" in
  build-deps)
    apt_install "${build_packages[@]}"
    ;;
  build)
    src=$2 build=$3 destdir=$4
    # CCACHE_DIR set but empty: no cache to use (the Dockerfile's default, no cache mounted), so
    # none is made. Unset: ccache's own default, as in CI's run outside the engine.
    if [ -n "${CCACHE_DIR+set}" ] && [ -z "$CCACHE_DIR" ]; then
      unset CCACHE_DIR
      export CCACHE_DISABLE=1
    fi
    if [ -n "${CCACHE_DISABLE+set}" ]; then echo "build: ccache off"
    else echo "build: ccache in ${CCACHE_DIR:-its default directory}"; fi
    # RelWithDebInfo, stripped at install: the same compiler flags as CI's main build, so CI's
    # run of this stage is mostly ccache hits (.ci/test sets CCACHE_NOHASHDIR).
    cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
      -DAPCGATE_TESTS=OFF -DAPCGATE_BENCH=OFF
    cmake --build "$build" --target apcgate apcgate_man -j "$(nproc)"
    DESTDIR="$destdir" cmake --install "$build" --strip
    "$destdir/usr/bin/apcgate" --version
    ;;
  runtime-packages)
    printf '%s\n' "${runtime_packages[@]}"
    ;;
  runtime-deps)
    apt_install "${runtime_packages[@]}"
    # Neither package lists nor the downloaded .debs stay in the image: Debian's own images
    # drop them by configuration, other bases (CI's debootstrap one) keep them.
    apt-get clean
    rm -rf /var/lib/apt/lists/*
    ;;
  check-runtime)
    binary=$2/usr/bin/apcgate
    status=0
    # Every library the binary names (DT_NEEDED) must come from a listed runtime package.
    for lib in $(objdump -p "$binary" | awk '/NEEDED/ {print $2}'); do
      path=$(ldd "$binary" | awk -v l="$lib" '$1 == l {print $3}')
      pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n1 | cut -d: -f1) ||
        pkg=$(dpkg -S "$path" 2>/dev/null | head -n1 | cut -d: -f1) || true
      if [ -z "$pkg" ] || ! printf '%s\n' "${runtime_packages[@]}" | grep -qx "$pkg"; then
        echo "check-runtime: $lib ($path) comes from '${pkg:-?}', not in runtime_packages" >&2
        status=1
      else
        echo "check-runtime: $lib <- $pkg"
      fi
    done
    exit $status
    ;;
  *)
    sed -n '2,12p' "$0" >&2
    exit 2
    ;;
esac
