#!/usr/bin/env bash
# Two processes build the endgame databases into one folder at the same time while a third is
# killed in the middle of its build: afterwards every level is whole (db verify recomputes
# positions from their children), and a new build keeps every level instead of rebuilding.
#   usage: db_concurrent.sh CL_MANKALAH
set -euo pipefail
mankalah=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
levels=11
"$mankalah" db build --max-stones $levels --builder cpu --threads 1 --db-dir "$dir" > "$dir/a.log" 2>&1 &
a=$!
"$mankalah" db build --max-stones $levels --builder gpu --db-dir "$dir" > "$dir/b.log" 2>&1 &
b=$!
"$mankalah" db build --max-stones $levels --builder cpu --threads 1 --db-dir "$dir" > "$dir/c.log" 2>&1 &
c=$!
sleep 0.3
kill -KILL $c 2>/dev/null || true
wait $a || { echo "FAILED: the first build: $(tail -3 "$dir/a.log")"; exit 1; }
wait $b || { echo "FAILED: the second build: $(tail -3 "$dir/b.log")"; exit 1; }
wait $c 2>/dev/null || true
"$mankalah" db verify --db-dir "$dir" > "$dir/verify.log" 2>&1 ||
  { echo "FAILED: db verify: $(tail -5 "$dir/verify.log")"; exit 1; }
"$mankalah" db build --max-stones $levels --builder cpu --db-dir "$dir" > "$dir/again.log" 2>&1
kept=$(grep -c "kept" "$dir/again.log" || true)
[ "$kept" -eq $((levels + 1)) ] ||
  { echo "FAILED: a new build kept $kept of $((levels + 1)) levels: $(cat "$dir/again.log")"; exit 1; }
echo "db concurrent: two builds and a killed one left $kept whole levels: passed"
