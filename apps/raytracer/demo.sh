#!/usr/bin/env bash
# Main-job step for cl-raytracer: renders the built-in `seed` scene (1000 spheres over a
# checkerboard, shadows, 3 reflection bounces) headless on the best device and says where the
# image went. A GPU renders the full 700x700; a CPU device (PoCL) 350x350 so this takes seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
exe=./build/apps/raytracer/cl-raytracer
size=700x700
if ! "$exe" --list-devices 2>/dev/null | grep -qi gpu; then size=350x350; fi
mkdir -p build/demo
"$exe" render --scene seed --size "$size" --frames 3 --out build/demo/raytracer.png \
  --json build/demo/raytracer.json
echo "raytracer: the image is build/demo/raytracer.png (statistics: build/demo/raytracer.json)"
