#!/usr/bin/env bash
# Main-job step for cl-raytracer: renders the built-in `seed` scene (1000 spheres over a
# checkerboard, shadows, 3 reflection bounces) headless on the best device and says where the
# image went. A GPU renders the full 700x700; a CPU device (PoCL) 350x350 so this takes seconds.
# Then a glTF sample model from assimp-testmodels (setup.sh installs it), where it is there,
# path traced (256 paths a pixel on a GPU, 16 on a CPU device).
set -euo pipefail
cd "$(dirname "$0")/../.."
exe=./build/apps/raytracer/cl-raytracer
size=700x700
model_size=800x600
model_frames=256
if ! "$exe" --list-devices 2>/dev/null | grep -qi gpu; then
  size=350x350 model_size=400x300 model_frames=16
fi
mkdir -p build/demo
"$exe" render --scene seed --size "$size" --frames 3 --out build/demo/raytracer.png \
  --json build/demo/raytracer.json
echo "raytracer: the image is build/demo/raytracer.png (statistics: build/demo/raytracer.json)"
model=/usr/share/assimp/models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb
if [ -f "$model" ]; then
  "$exe" render --scene "$model" --mode path --size "$model_size" --frames "$model_frames" \
    --out build/demo/raytracer-model.png --json build/demo/raytracer-model.json
  echo "raytracer: the glTF model, path traced, is build/demo/raytracer-model.png"
fi
