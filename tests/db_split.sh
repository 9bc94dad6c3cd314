#!/usr/bin/env bash
# The endgame database built by two devices (`--devices all` on PoCL with two pthread devices)
# or by two processes (mpirun) equals the one-device, one-process build file for file, byte for
# byte, also when the shared build starts from valid levels and a damaged one (kept on process
# 0's word, and rebuilt). With mpirun, a failure on one rank ends the whole run with its message.
#   usage: db_split.sh CL_MANKALAH devices|mpi [MPIEXEC]
set -euo pipefail
mankalah=$1
mode=$2
mpiexec=${3:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
levels=9
fail() { echo "FAILED: $1"; exit 1; }

"$mankalah" db build --max-stones $levels --db-dir "$dir/one" > "$dir/one.log" 2>&1 ||
  fail "the one-device build: $(tail -3 "$dir/one.log")"

# Levels 0..5 there already, level 3 damaged (a value no level-3 position has).
mkdir "$dir/shared"
cp "$dir"/one/level-0[0-5].kdb "$dir/shared/"
printf '\x55' | dd of="$dir/shared/level-03.kdb" bs=1 seek=100 conv=notrunc status=none

case $mode in
  devices)
    env -u CL_QUIET POCL_DEVICES="pthread pthread" "$mankalah" db build --devices all \
      --max-stones $levels --db-dir "$dir/shared" > "$dir/shared.log" 2>&1 ||
      fail "the two-device build: $(tail -3 "$dir/shared.log")"
    grep -q "2 devices" "$dir/shared.log" || fail "not built on 2 devices: $(cat "$dir/shared.log")"
    ;;
  mpi)
    "$mpiexec" --oversubscribe -np 2 "$mankalah" db build --max-stones $levels \
      --db-dir "$dir/shared" > "$dir/shared.log" 2>&1 ||
      fail "the two-process build: $(tail -3 "$dir/shared.log")"
    # Progress from rank 0 alone: one line per level.
    [ "$(grep -c "^level 7:" "$dir/shared.log")" -eq 1 ] ||
      fail "not one progress line per level: $(cat "$dir/shared.log")"
    ;;
  *) fail "mode must be devices or mpi, not $mode" ;;
esac

grep -q "checksum mismatch" "$dir/shared.log" || fail "the damaged level went unreported"
kept=$(grep -c "kept" "$dir/shared.log" || true)
[ "$kept" -eq 5 ] || fail "kept $kept levels, expected 5 (0..5 but the damaged 3): $(cat "$dir/shared.log")"
for n in $(seq 0 $levels); do
  file=$(printf 'level-%02d.kdb' "$n")
  cmp "$dir/one/$file" "$dir/shared/$file" || fail "$file differs from the one-device build"
done

if [ "$mode" = mpi ]; then
  # Rank 1 asks for a device that does not exist: both ranks end, rank 1 says why.
  status=0
  timeout 120 "$mpiexec" --oversubscribe -np 2 bash -c \
    '[ "$OMPI_COMM_WORLD_RANK" = 1 ] && export CL_DEVICES=99; exec "$@"' _ \
    "$mankalah" db build --max-stones 4 --db-dir "$dir/failing" > "$dir/failing.log" 2>&1 ||
    status=$?
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] ||
    fail "a failing rank gave exit status $status: $(cat "$dir/failing.log")"
  grep -q "rank 1 of 2" "$dir/failing.log" || fail "the failing rank unnamed: $(cat "$dir/failing.log")"
fi
echo "db split ($mode): levels 0..$levels equal the one-device build byte for byte: passed"
