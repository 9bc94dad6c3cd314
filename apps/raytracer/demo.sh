#!/usr/bin/env bash
# Main-job step for cl-raytracer: renders the built-in `seed` scene (1000 spheres over a
# checkerboard, shadows, 3 reflection bounces) headless on the best device and says where the
# image went. A GPU renders the full 700x700; a CPU device (PoCL) 350x350 so this takes seconds.
# Then a glTF sample model from assimp-testmodels (setup.sh installs it), where it is there.
set -euo pipefail
cd "$(dirname "$0")/../.."
exe=./build/apps/raytracer/cl-raytracer
size=700x700
model_size=800x600
if ! "$exe" --list-devices 2>/dev/null | grep -qi gpu; then size=350x350 model_size=400x300; fi
mkdir -p build/demo
"$exe" render --scene seed --size "$size" --frames 3 --out build/demo/raytracer.png \
  --json build/demo/raytracer.json
echo "raytracer: the image is build/demo/raytracer.png (statistics: build/demo/raytracer.json)"
model=/usr/share/assimp/models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb
if [ -f "$model" ]; then
  "$exe" render --scene "$model" --size "$model_size" --frames 4 \
    --out build/demo/raytracer-model.png --json build/demo/raytracer-model.json
  echo "raytracer: the glTF model is build/demo/raytracer-model.png"
fi
