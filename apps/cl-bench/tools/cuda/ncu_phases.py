#!/usr/bin/env python3
"""Where a kernel's time goes, by stretch of SASS: reads the source page of an Nsight Compute
report (ncu --import R --page source --csv --print-source sass > R.csv) and prints, for each
stretch between two barriers (the warp ranking's stretch of VOTE instructions on its own), the
share of stall samples, the warp instructions executed per ROUND keys, the commonest opcodes and
stall reasons; then the same per opcode over the whole kernel.

usage: ncu_phases.py R.csv KEYS [--round 32]
"""
import argparse
import collections
import csv
import re
import sys


def opcode(source):
    text = re.sub(r"^@!?U?P\w+\s+", "", source.strip())
    return text.split()[0].split(".")[0] if text else "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="ncu --page source --csv --print-source sass output")
    parser.add_argument("keys", type=int, help="keys the profiled launch sorted")
    parser.add_argument("--round", type=int, default=32, help="keys a round (default 32)")
    args = parser.parse_args()
    try:
        rows = list(csv.reader(open(args.csv, newline="")))
    except OSError as error:
        sys.exit(f"ncu_phases: cannot read {args.csv}: {error}")
    header_at = next((i for i, r in enumerate(rows) if "Source" in r and "Address" in r), None)
    if header_at is None:
        sys.exit(f"ncu_phases: {args.csv}: no header row with 'Address' and 'Source'")
    header = rows[header_at]
    need = ["Source", "Instructions Executed", "Warp Stall Sampling (All Samples)"]
    missing = [c for c in need if c not in header]
    if missing:
        sys.exit(f"ncu_phases: {args.csv}: missing columns {missing}")
    src, executed, sampled = (header.index(c) for c in need)
    stall_columns = [(i, c[len("stall_"):]) for i, c in enumerate(header)
                     if c.startswith("stall_") and "Not Issued" not in c]
    lines = [r for r in rows[header_at + 1:] if len(r) == len(header)]
    if not lines:
        sys.exit(f"ncu_phases: {args.csv}: no instruction rows")

    def number(text):
        return int(text.replace(",", "")) if text and text not in ("-", "") else 0

    ops = [opcode(r[src]) for r in lines]
    votes = [i for i, op in enumerate(ops) if op == "VOTE"]
    cuts = {0, len(lines)}
    cuts.update(i + 1 for i, op in enumerate(ops) if op == "BAR")
    if votes:
        cuts.update((votes[0], votes[-1] + 1))
    cuts = sorted(cuts)
    rounds = args.keys / args.round
    total_samples = sum(number(r[sampled]) for r in lines) or 1
    print(f"{len(lines)} SASS instructions, "
          f"{sum(number(r[executed]) for r in lines) / rounds:.1f} warp instructions a "
          f"{args.round}-key round, {total_samples} stall samples")
    print(f"{'SASS lines':>12} {'samples':>8} {'instr/round':>11}  commonest opcodes; stalls")
    for begin, end in zip(cuts, cuts[1:]):
        if begin == end:
            continue
        part = lines[begin:end]
        samples = sum(number(r[sampled]) for r in part)
        count = sum(number(r[executed]) for r in part)
        kinds = collections.Counter(ops[begin:end]).most_common(5)
        stalls = collections.Counter()
        for r in part:
            for i, name in stall_columns:
                stalls[name] += number(r[i])
        print(f"{begin:5d}-{end - 1:<6d} {100 * samples / total_samples:7.1f}% {count / rounds:11.2f}"
              f"  {' '.join(f'{k}x{n}' for k, n in kinds)};"
              f" {' '.join(f'{k}:{n}' for k, n in stalls.most_common(3))}")
    print("\nby opcode: warp instructions a round, share of stall samples")
    executed_by = collections.Counter()
    sampled_by = collections.Counter()
    for op, r in zip(ops, lines):
        executed_by[op] += number(r[executed])
        sampled_by[op] += number(r[sampled])
    for op, count in executed_by.most_common(15):
        print(f"  {op:8s} {count / rounds:7.2f} {100 * sampled_by[op] / total_samples:6.1f}%")


if __name__ == "__main__":
    main()
