#!/bin/sh
# cl-boids sweep over two PoCL devices (POCL_DEVICES="pthread pthread") gives every run the same
# outcome as a sweep on one device: the CSVs agree but for the device and steps/s columns.
# Usage: boids_sweep_devices.sh path/to/cl-boids
set -u
boids=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sweep="sweep --count 400 --dims 2,3 --seeds 1-3 --set ws=0.05,0.2 --steps 5 --box 12"
fail() { echo "FAILED: $*"; exit 1; }

POCL_DEVICES="pthread pthread" "$boids" $sweep --devices all --csv "$dir/two.csv" \
  > "$dir/two.txt" 2>&1 || { cat "$dir/two.txt"; fail "the two-device sweep exited $?"; }
cat "$dir/two.txt"
grep -q "12 runs of 5 steps on 2 devices" "$dir/two.txt" || fail "not a sweep on two devices"
"$boids" $sweep --csv "$dir/one.csv" > "$dir/one.txt" 2>&1 ||
  { cat "$dir/one.txt"; fail "the one-device sweep exited $?"; }
grep -q "on 1 device " "$dir/one.txt" || fail "not a sweep on one device"

[ "$(wc -l < "$dir/one.csv")" -eq 13 ] || fail "expected a header and 12 rows"
# Columns 20-22: device, device_name, steps_per_s.
cut -d, -f1-19,23- "$dir/one.csv" > "$dir/one.cut"
cut -d, -f1-19,23- "$dir/two.csv" > "$dir/two.cut"
cmp "$dir/one.cut" "$dir/two.cut" || { diff "$dir/one.cut" "$dir/two.cut"; fail "outcomes differ"; }
echo passed
