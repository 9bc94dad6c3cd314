#!/bin/bash
# cl-raytracer on several devices and several processes gives the one-device images, byte for
# byte. Usage:
#   raytracer_multi.sh devices CL_RAYTRACER          render --devices all on two PoCL devices
#   raytracer_multi.sh mpi CL_RAYTRACER MPIEXEC      render --animation under mpirun -np 2
# Prints "passed" at the end (ctest looks for it).
set -euo pipefail
mode=$1
raytracer=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

if [[ $mode == devices ]]; then
  for case in "--scene seed --mode whitted --aa 2" "--scene cornell --mode path --frames 3"; do
    # shellcheck disable=SC2086  # the case is a list of options
    "$raytracer" render $case --size 48x40 --out "$dir/one.png" >"$dir/one.log"
    # shellcheck disable=SC2086
    POCL_DEVICES="pthread pthread" "$raytracer" render $case --size 48x40 --devices all \
      --out "$dir/two.png" >"$dir/two.log"
    grep -q "devices: .* + .*each frame split by rows" "$dir/two.log" ||
      fail "$case: not split across two devices: $(cat "$dir/two.log")"
    grep -q "shares: device" "$dir/two.log" || fail "$case: no shares printed"
    cmp "$dir/one.png" "$dir/two.png" || fail "$case: two devices' PNG differs from one device's"
  done
elif [[ $mode == mpi ]]; then
  mpiexec=$3
  options=(render --scene cornell --mode path --size 40x32 --frames 2 --animation 5)
  "$raytracer" "${options[@]}" --out "$dir/one/frame_%02d.png" >"$dir/one.log"
  "$mpiexec" --oversubscribe -np 2 "$raytracer" "${options[@]}" --out "$dir/mpi/frame_%02d.png" \
    >"$dir/mpi.log" 2>"$dir/mpi.err" || fail "mpirun: $(cat "$dir/mpi.err")"
  grep -q "animation: 5 of 5 frames (2 ranks)" "$dir/mpi.err" ||
    fail "no progress line on rank 0: $(cat "$dir/mpi.err")"
  grep -q "(rank 1 of 2" "$dir/mpi.log" || fail "rank 1 rendered nothing: $(cat "$dir/mpi.log")"
  for f in 00 01 02 03 04; do
    cmp "$dir/one/frame_$f.png" "$dir/mpi/frame_$f.png" || fail "frame $f differs under mpirun"
  done
  if cmp -s "$dir/one/frame_00.png" "$dir/one/frame_02.png"; then
    fail "frames 0 and 2 are the same: the camera did not orbit"
  fi
  # A failure ends every rank with a message naming the rank.
  if "$mpiexec" --oversubscribe -np 2 "$raytracer" "${options[@]}" --out "$dir/bad.png" \
    >"$dir/bad.log" 2>&1; then
    fail "a bad --out pattern under mpirun did not fail"
  fi
  grep -q "cl-raytracer (rank [01] of 2 on .*): --out: with --animation" "$dir/bad.log" ||
    fail "no message naming the rank: $(cat "$dir/bad.log")"
  # One rank failing (frame 1, rank 1's, cannot be written: a folder has its name) ends the other,
  # which would otherwise wait for it for ever.
  mkdir -p "$dir/clash/frame_01.png"
  if timeout 120 "$mpiexec" --oversubscribe -np 2 "$raytracer" "${options[@]}" \
    --out "$dir/clash/frame_%02d.png" >"$dir/clash.log" 2>&1; then
    fail "an unwritable frame under mpirun did not fail"
  fi
  grep -q "cl-raytracer (rank 1 of 2 on .*): .*frame_01.png" "$dir/clash.log" ||
    fail "no message naming rank 1 and the file: $(cat "$dir/clash.log")"
else
  fail "unknown mode $mode"
fi
echo passed
