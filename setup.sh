#!/usr/bin/env bash
# Sets the project up on Debian 12 and runs its jobs.
#   bash setup.sh          install the Debian packages the project needs (only what is missing)
#   bash setup.sh build    ... then configure and build into build/
#   bash setup.sh demo     ... then run the main job headless on the best device found: every
#                          app's apps/<app>/demo.sh
#   bash setup.sh test     ... then check formatting and run the whole test suite (ctest)
#   bash setup.sh sanitize ... then build with clang, AddressSanitizer and UndefinedBehavior-
#                          Sanitizer into build-sanitize/ and run the test suite there
#   bash setup.sh fuzz     ... then fuzz every parser of user input for FUZZ_SECONDS (default 60)
#                          each, with the build-sanitize/ build (tests/fuzz/run.sh)
# Installs with apt-get (sudo when not root); says what it installs. SETUP_NO_GUI=1 skips GTK4.
set -euo pipefail
cd "$(dirname "$0")"
job=${1:-install}

packages=(
  build-essential cmake pkg-config
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers
  pocl-opencl-icd clinfo
  libgtest-dev googletest libgmock-dev
  libcli11-dev nlohmann-json3-dev libpng-dev
  libtinygltf-dev libtinyobjloader-dev libturbojpeg0-dev assimp-testmodels
  # cl-raytracer's environment images (Radiance .hdr and others, through stb_image)
  libstb-dev
  clang-format clang libclang-rt-14-dev ccache
  python3-matplotlib
  # the endgame database files' checksums (XXH3)
  libxxhash-dev
  # cl-bench --peers: Boost.Compute (header-only) and CLBlast, optional at build time
  libboost-dev libclblast-dev
  # cl-raytracer rays: Intel Embree 3, the CPU tracer ours is measured against (optional)
  libembree-dev
  # several processes through mpirun (the tools run as one process without it)
  libopenmpi-dev openmpi-bin
)
if [ "${SETUP_NO_GUI:-0}" != 1 ]; then
  # Mesa's OpenGL drivers: GTK's default renderer, which the GUI tests run on as users without
  # a GPU do (software rasteriser).
  packages+=(libgtk-4-dev xvfb xauth libgl1-mesa-dri libegl-mesa0 xdotool)
fi

install_missing() {
  local missing=() p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all ${#packages[@]} Debian packages are installed"
    return
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: not root and no sudo; please install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  echo "setup: installed ${#missing[@]} packages"
}

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
  cmake --build build -j "$(nproc)"
}

# Host code under ASan and UBSan (clang), with the libFuzzer targets. Leaks inside the OpenCL
# driver, GTK and their libraries are not ours: tests/lsan_suppressions.txt names them.
sanitize_build() {
  cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DCLF_SANITIZE=address,undefined -DCLF_FUZZ=ON -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
  cmake --build build-sanitize -j "$(nproc)"
}
# intercept_tls_get_addr=0: up to LLVM 16 (Debian 12 has clang 14) the runtime's __tls_get_addr
# interceptor takes a dynamic TLS block that malloc happened to place 16 bytes past a page
# boundary for a glibc 2.19 block with a header, reads a range from before it, and LeakSanitizer's
# tracer dies scanning that range at exit ("Tracer caught signal 11") after every test passed.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:intercept_tls_get_addr=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan_suppressions.txt:print_suppressions=0}

check_format() {
  local files
  files=$(git ls-files '*.cpp' '*.hpp' '*.h' '*.cl' 2>/dev/null || find framework apps tests shared kernels -name '*.[ch]pp' -o -name '*.h' -o -name '*.cl')
  # shellcheck disable=SC2086
  if ! clang-format --dry-run --Werror $files; then
    echo "setup: the files above are not formatted; run: clang-format -i \$(git ls-files '*.cpp' '*.hpp' '*.h' '*.cl')" >&2
    exit 1
  fi
  echo "setup: formatting checked ($(echo "$files" | wc -w) files)"
}

case "$job" in
  install) install_missing ;;
  build) install_missing; build ;;
  demo)
    # The main job: each app's demo.sh runs it headless on its built-in default and says where
    # its output went; cl-info first, so the device in use is on top.
    install_missing; build
    bash apps/cl-info/demo.sh
    for demo in apps/*/demo.sh; do
      [ "$demo" = apps/cl-info/demo.sh ] || bash "$demo"
    done
    ;;
  test)
    install_missing; check_format; build
    (cd build && ctest --output-on-failure -j "$(nproc)")
    ;;
  sanitize)
    install_missing; sanitize_build
    (cd build-sanitize && ctest --output-on-failure -j "$(nproc)")
    ;;
  fuzz)
    install_missing; sanitize_build
    bash tests/fuzz/run.sh build-sanitize "${FUZZ_SECONDS:-60}"
    ;;
  *) echo "usage: bash setup.sh [install|build|demo|test|sanitize|fuzz]" >&2; exit 2 ;;
esac
