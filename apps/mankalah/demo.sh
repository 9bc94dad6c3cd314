#!/usr/bin/env bash
# Main-job step for cl-mankalah: perft on the device, one analysis, and a short AI-vs-AI game
# (alpha-beta against itself at 20 ms a move), logged as JSON lines.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=./build/apps/mankalah/cl-mankalah
mkdir -p build/demo
log=build/demo/mankalah.jsonl
"$bin" perft --depth 8 --engine gpu
"$bin" analyze --engine gpu-layered --depth 8 --to-move bottom
"$bin" play --selfplay --script --engine alphabeta --time-ms 20 --log "$log"
tail -n 1 "$log"
echo "mankalah: $(wc -l < "$log") JSON lines of a self-play game written to $log"
