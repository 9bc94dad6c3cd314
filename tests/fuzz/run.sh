#!/usr/bin/env bash
# Fuzzes every libFuzzer target of a CLF_FUZZ build for a bounded time each.
#   bash tests/fuzz/run.sh BUILD_DIR [SECONDS_PER_TARGET]   (default 60)
# Each target starts from its seeds (tests/fuzz/corpus/<target>, not modified: new inputs go to
# a scratch folder). An input that crashes, leaks or hits undefined behaviour is saved as
# tests/fuzz/regressions/<target>/crash-... and the script exits 1: commit that file with the fix,
# and ctest's fuzz.<target> replays it from then on.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [SECONDS_PER_TARGET]}
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=()
for target_dir in "$here"/corpus/*/; do
  target=$(basename "$target_dir")
  binary="$build/tests/fuzz/$target"
  [ -x "$binary" ] || { echo "fuzz: $binary is missing (configure with -DCLF_FUZZ=ON)" >&2; exit 2; }
  mkdir -p "$scratch/$target" "$here/regressions/$target"
  echo "fuzz: $target for ${seconds} s"
  if ! "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$here/regressions/$target/" "$scratch/$target" "$target_dir" \
      >"$scratch/$target.log" 2>&1; then
    tail -n 40 "$scratch/$target.log" >&2
    failed+=("$target")
  fi
  grep -E '^(Done|stat::number_of_executed_units)' "$scratch/$target.log" || true
  rmdir --ignore-fail-on-non-empty "$here/regressions/$target"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs saved under tests/fuzz/regressions/)" >&2
  exit 1
fi
echo "fuzz: every target ran ${seconds} s without a finding"
