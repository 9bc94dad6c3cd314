#!/usr/bin/env bash
# The scaling runs of docs/architecture.md ("Several GPUs, several hosts"): the endgame database
# build (levels BASE+1..LAST from a folder holding 0..BASE), the path tracer at 3840x2160 and the
# boids sweep, each on the first 1, 2, 4 and 8 GPUs there are, in one process; outputs compared
# with the one-GPU run's (cmp). Run from the project root on the GPU machine:
#   bash docs/benchmarks/scaling.sh [LAST=28] [BUILD=/tmp/b] [OUT=/tmp/out]
# DEVICE_TYPE=CPU, BASE=N (default 22) and ONLY=endgame try it on PoCL devices with small levels.
set -u
last=${1:-28}
build=${2:-/tmp/b}
out=${3:-${OUT:-/tmp/out}}
base=${BASE:-22}
mkdir -p "$out"
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
stamp() {
  local t0=${EPOCHREALTIME/./} line now
  while IFS= read -r line; do
    now=${EPOCHREALTIME/./}
    printf '%4d.%02d s  %s\n' $(((now - t0) / 1000000)) $(((now - t0) % 1000000 / 10000)) "$line"
  done
}

command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
# The build's logs stay beside the build unless it fails: the device tool returns 8 files.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release > "$build.configure.log" 2>&1 ||
  { cp "$build.configure.log" "$out/"; tail -30 "$build.configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" --target cl-mankalah cl-raytracer cl-boids > "$build.log" 2>&1 ||
  { cp "$build.log" "$out/"; grep -E "error" -A5 "$build.log" | head -40; exit 1; }
echo "built after $(elapsed) s"
mankalah=$build/apps/mankalah/cl-mankalah
raytracer=$build/apps/raytracer/cl-raytracer
boids=$build/apps/boids/cl-boids

devices=$("$mankalah" --list-devices | grep "  ${DEVICE_TYPE:-GPU}  " | awk '{print $1}')
first() { echo $devices | tr ' ' '\n' | head -"$1" | paste -sd, -; }
count=$(echo $devices | wc -w)
[ "$count" -gt 0 ] || { echo "no ${DEVICE_TYPE:-GPU} device"; exit 1; }
runs=""
for k in 1 2 4 8; do [ "$k" -le "$count" ] && runs="$runs $k"; done
echo "devices: $(echo $devices); runs on$runs"

echo "== endgame database, levels $((base + 1))..$last from 0..$base, $(elapsed) s"
rm -rf /tmp/db-base
"$mankalah" --devices "$(first 1)" db build --max-stones "$base" --db-dir /tmp/db-base | tail -1
for k in $runs; do
  echo "-- $k device(s)"
  rm -rf "/tmp/db$k" && cp -r /tmp/db-base "/tmp/db$k"
  # Every line but the kept levels' and the device banner, so that errors show.
  # Each line stamped with the seconds since the command started: start-up, levels and exit.
  (time timeout "${DB_TIMEOUT:-300}" "$mankalah" --devices "$(first "$k")" db build \
    --max-stones "$last" --db-dir "/tmp/db$k") 2>&1 |
    grep --line-buffered -v -E 'kept$|^clf: using|^$|^user|^sys' | stamp
  status=${PIPESTATUS[0]}
  [ "$status" = 0 ] || echo "db build on $k device(s) FAILED (exit $status)"
done
for k in $runs; do
  [ "$k" = 1 ] && continue
  for n in $(seq $((base + 1)) "$last"); do
    cmp -s "/tmp/db1/level-$(printf %02d "$n").kdb" "/tmp/db$k/level-$(printf %02d "$n").kdb" ||
      echo "level $n DIFFERS on $k devices"
  done
  echo "levels $((base + 1))..$last on $k devices compared"
  rm -rf "/tmp/db$k"
done
[ "${ONLY:-}" = endgame ] && { echo "done after $(elapsed) s"; exit 0; }

echo "== path tracer, instances:4096 at 3840x2160, $(elapsed) s"
for k in $runs; do
  "$raytracer" --devices "$(first "$k")" render --scene instances:4096 --size 3840x2160 --mode path \
    --frames 60 --out "/tmp/path_$k.png" --json "$out/path_$k.json" 2>&1 | grep -E "median|rror"
  [ "$k" != 1 ] && { cmp -s /tmp/path_1.png "/tmp/path_$k.png" || echo "image on $k devices DIFFERS"; }
done

echo "== boids sweep, 16 runs of 10^6 boids x 1000 steps, $(elapsed) s"
for k in $runs; do
  "$boids" --devices "$(first "$k")" sweep --count 1000000 --dims 3 --seeds 1-16 --steps 1000 \
    --csv "$out/sweep_$k.csv" 2>&1 | grep -v -E "^cl-boids sweep: [0-9]+/|^clf: using"
  [ "$k" != 1 ] && { cmp -s <(cut -d, -f1-19,23- "$out/sweep_1.csv") \
    <(cut -d, -f1-19,23- "$out/sweep_$k.csv") || echo "sweep outcomes on $k devices DIFFER"; }
done
echo "done after $(elapsed) s"
