#!/usr/bin/env python3
"""Draws cl-bench results: throughput against size, one line per variant (and dtype), one PNG
per primitive, with the CPU reference as a dashed line -- the seed's figures with today's
hardware. Reads the JSON that `cl-bench --json FILE` writes (several files: their lines share the
axes, labelled by device). `cl-bench --plot DIR` runs this script.

    python3 plot_bench.py results.json [more.json ...] --out DIR [--metric throughput]

Exit status: 0 when the plots were written, 3 when matplotlib is missing, 1 on other errors.
"""
import argparse
import json
import math
import os
import sys
from collections import defaultdict

METRICS = {
    "throughput": ("throughput", None),  # label from the records' unit
    "copy_fraction": ("fraction of copy bandwidth", "copy_fraction"),
    "median_ms": ("median device time (ms)", "median_ms"),
}


def load_records(paths):
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, list):
            raise ValueError(f"{path}: expected a JSON list of cl-bench records")
        records.extend(data)
    return records


def usable(record, metric):
    value = record.get(metric)
    return (record.get("verified") and isinstance(value, (int, float)) and value > 0
            and record.get("n", 0) > 0)


def cpu_throughput(record):
    """The CPU reference's throughput in the record's unit (work per second / 1e9)."""
    ms = record.get("cpu_reference_ms")
    work = record.get("work")
    if not isinstance(ms, (int, float)) or not isinstance(work, (int, float)) or ms <= 0:
        return None
    return work / (ms * 1e-3) / 1e9


def plot_primitive(plt, primitive, records, metric, out_dir):
    """One PNG: a panel per dtype (one panel when there is one), a line per variant (and device,
    when several files are drawn together), the CPU reference dashed."""
    devices = sorted({r.get("device", "?") for r in records})
    dtypes = sorted({r["dtype"] for r in records})
    series = sorted({(r["variant"], r.get("device", "?")) for r in records})
    palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    styles = ["-", "-.", ":"]
    columns = 1 if len(dtypes) == 1 else 2 if len(dtypes) <= 4 else 3 if len(dtypes) <= 9 else 4
    rows = math.ceil(len(dtypes) / columns)
    width, height = (9, 5.5) if len(dtypes) == 1 else (4.6 * columns + 2.2, 3.4 * rows + 0.8)
    figure, axes_grid = plt.subplots(rows, columns, figsize=(width, height), sharex=True,
                                     sharey=True, squeeze=False)
    handles = {}
    for index, dtype in enumerate(dtypes):
        axes = axes_grid[index // columns][index % columns]
        for number, (variant, device) in enumerate(series):
            points = sorted((r["n"], r[metric]) for r in records
                            if r["dtype"] == dtype and r["variant"] == variant
                            and r.get("device", "?") == device)
            if not points:
                continue
            label = variant + (f" on {device}" if len(devices) > 1 else "")
            line, = axes.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                              markersize=3, color=palette[number % len(palette)],
                              linestyle=styles[(number // len(palette)) % len(styles)],
                              label=label)
            handles.setdefault(label, line)
        if metric == "throughput":
            # Several variants time the same CPU reference: the fastest seen at each n.
            cpu = {}
            for r in records:
                value = cpu_throughput(r) if r["dtype"] == dtype else None
                if value is not None:
                    cpu[r["n"]] = max(cpu.get(r["n"], 0), value)
            if cpu:
                points = sorted(cpu.items())
                line, = axes.plot([p[0] for p in points], [p[1] for p in points], linestyle="--",
                                  color="gray", marker=".", label="CPU reference")
                handles.setdefault("CPU reference", line)
        axes.set_xscale("log", base=2)
        axes.set_yscale("log")
        axes.grid(True, which="major", alpha=0.4)
        axes.grid(True, which="minor", alpha=0.15)
        if len(dtypes) > 1:
            axes.set_title(dtype, fontsize=9)
    for index in range(len(dtypes), rows * columns):
        axes_grid[index // columns][index % columns].set_visible(False)

    units = sorted({r.get("unit", "") for r in records})
    y_label = METRICS[metric][0]
    if metric == "throughput":
        y_label = "throughput (" + ", ".join(units) + ")"
    x_label = "n" + (" (edge of the square matrices)" if primitive == "matmul" else "")
    for row in axes_grid:
        row[0].set_ylabel(y_label)
    for axes in axes_grid[-1]:
        axes.set_xlabel(x_label)
    first = records[0]
    where = devices[0] if len(devices) == 1 else ", ".join(devices)
    driver = f", driver {first.get('driver')}" if len(devices) == 1 else ""
    date = (first.get("date") or "")[:10]
    title = f"cl-bench {primitive}: {where}{driver}, {date}"
    if len(dtypes) == 1:
        axes_grid[0][0].set_title(f"{title} ({dtypes[0]})", fontsize=10)
        axes_grid[0][0].legend(fontsize=8)
        figure.tight_layout()
    else:
        figure.suptitle(title, fontsize=11)
        figure.legend(list(handles.values()), list(handles.keys()), loc="center right",
                      fontsize=8)
        legend_width = 2.0 / width  # about two inches for the legend on the right
        figure.tight_layout(rect=(0, 0, 1 - legend_width, 0.97))
    path = os.path.join(out_dir, f"{primitive}.png")
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", help="cl-bench --json output")
    parser.add_argument("--out", default=".", help="directory for the PNGs (default: .)")
    parser.add_argument("--metric", choices=sorted(METRICS), default="throughput")
    args = parser.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_bench: matplotlib is not installed, so no plots were drawn. Install it with "
              "'apt-get install python3-matplotlib' (Debian/Ubuntu) or 'pip install matplotlib'.",
              file=sys.stderr)
        return 3

    try:
        records = load_records(args.json)
    except (OSError, ValueError) as error:
        print(f"plot_bench: {error}", file=sys.stderr)
        return 1
    by_primitive = defaultdict(list)
    for r in records:
        if usable(r, args.metric):
            by_primitive[r["primitive"]].append(r)
    if not by_primitive:
        print("plot_bench: no verified measurements with n > 0 to plot", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    for primitive, primitive_records in by_primitive.items():
        path = plot_primitive(plt, primitive, primitive_records, args.metric, args.out)
        sizes = {r["n"] for r in primitive_records}
        note = "" if len(sizes) > 1 else " (one size only: points, not curves)"
        print(f"plot_bench: wrote {path}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
