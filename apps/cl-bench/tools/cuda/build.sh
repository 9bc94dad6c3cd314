#!/bin/bash
# Builds sort-profile (see sort_profile.cu) into $1 (default /tmp/sort-profile/sort-profile).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/sort-profile/sort-profile}
mkdir -p "$(dirname "$out")"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cuda=$(dirname "$(dirname "$nvcc")")
"$nvcc" -O2 -std=c++17 "$here/sort_profile.cu" -o "$out" -L"$cuda/lib64/stubs" -lcuda
echo "$out"
