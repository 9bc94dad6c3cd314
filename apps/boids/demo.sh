#!/usr/bin/env bash
# Main-job step for cl-boids: a short headless flock on the best device (a few seconds on
# PoCL), its final frame as a PNG and its final state as CSV.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p build/demo
./build/apps/boids/cl-boids run --n 5000 --steps 1000 --dims 2 --seed 1 \
  --png build/demo/boids.png --dump build/demo/boids.csv --json build/demo/boids.json
echo "cl-boids demo: final frame in build/demo/boids.png, final state in build/demo/boids.csv," \
  "figures in build/demo/boids.json"
