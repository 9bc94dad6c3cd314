#!/usr/bin/env python3
"""Runs the sizes of a cl-bench run through PyTorch and CuPy (CUB and cuBLAS underneath) on the
same GPU and prints both side by side, as ratios ours / theirs (above 1: cl-bench is faster).

    cl-bench all --json ours.json
    python3 compare_torch.py ours.json [--json theirs.json] [--runs 10] [--warmup 3]
    python3 compare_torch.py --sizes 2^20,2^28 --matmul-sizes 1024,8192   # theirs only

References, per cl-bench primitive and dtype:
    copy     torch: y.copy_(x) int32 / cupy.copyto        GB/s (bytes read + written)
    scan     torch.cumsum(x, 0, dtype=int32|float32)        Gelem/s
    reduce   cupy.sum int32 (and min, max, argmin, argmax; uint32, float32)   Gelem/s
    sort     torch.sort int32 (keys + int64 indices)       Gkeys/s  for cl-bench's "*-kv" dtypes
             cupy.sort uint32 (keys only; copies then sorts) Gkeys/s for keys-only dtypes
    matmul   torch.mm fp32 n x n x n, TF32 off              GFLOP/s  (n: the square edge)
    random   torch.rand float32 / torch.randint int32       Gelem/s
Times are CUDA events around each call: `--warmup` untimed calls, then the median of `--runs`.
Missing torch or cupy (or no CUDA device) skips their rows with a note; nothing crashes.
`--json FILE` writes the reference measurements as cl-bench-style records (plot_bench.py can
draw them next to cl-bench's own).
"""
import argparse
import datetime
import json
import re
import statistics
import sys

PRIMITIVE_ORDER = ["copy", "scan", "reduce", "compact", "sort", "matmul", "random"]


# ---- sizes, as cl-bench parses them ---------------------------------------------------------

SUFFIXES = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
            "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}


def parse_size(text):
    text = text.strip()
    match = re.fullmatch(r"(\d+)\^(\d+)", text)
    if match:
        return int(match.group(1)) ** int(match.group(2))
    match = re.fullmatch(r"(\d*\.?\d+(?:[eE][+]?\d+)?)(k|K|M|G|T|Ki|Mi|Gi|Ti)?", text)
    if not match:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size (use 1000, 1e6, 2^20, 1M, 16Mi)")
    value = float(match.group(1)) * SUFFIXES[match.group(2) or ""]
    if value != round(value):
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number")
    return int(round(value))


def parse_sizes(text):
    sizes = []
    for item in text.split(","):
        if ".." in item:
            first, last = (parse_size(part) for part in item.split("..", 1))
            if first <= 0 or last < first:
                raise argparse.ArgumentTypeError(f"'{item}': A..B needs 0 < A <= B")
            n = first
            while n <= last:
                sizes.append(n)
                n *= 2
        else:
            sizes.append(parse_size(item))
    return sizes


def format_size(n):
    if n >= 1024 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return str(n)


# ---- the libraries --------------------------------------------------------------------------

class Libraries:
    """torch and cupy where they import and see a CUDA device; `notes` says why one is missing."""

    def __init__(self):
        self.torch = None
        self.cupy = None
        self.notes = {}
        try:
            import torch
            if torch.cuda.is_available():
                self.torch = torch
                torch.backends.cuda.matmul.allow_tf32 = False  # fp32 matmul in fp32
                torch.backends.cudnn.allow_tf32 = False
            else:
                self.notes["torch"] = "torch has no CUDA device"
        except Exception as error:  # ImportError, or a broken install
            self.notes["torch"] = f"torch not available ({error.__class__.__name__}: {error})"
        try:
            import cupy
            if cupy.cuda.runtime.getDeviceCount() > 0:
                self.cupy = cupy
            else:
                self.notes["cupy"] = "cupy sees no CUDA device"
        except Exception as error:
            self.notes["cupy"] = f"cupy not available ({error.__class__.__name__}: {error})"

    def device_name(self):
        if self.torch is not None:
            return self.torch.cuda.get_device_name()
        if self.cupy is not None:
            props = self.cupy.cuda.runtime.getDeviceProperties(0)
            name = props["name"]
            return name.decode() if isinstance(name, bytes) else name
        return "no CUDA device"

    def versions(self):
        parts = []
        if self.torch is not None:
            parts.append(f"torch {self.torch.__version__} (CUDA {self.torch.version.cuda})")
        if self.cupy is not None:
            parts.append(f"cupy {self.cupy.__version__}")
        return ", ".join(parts) or "none"

    def free_memory(self):
        if self.torch is not None:
            self.torch.cuda.empty_cache()
        if self.cupy is not None:
            self.cupy.get_default_memory_pool().free_all_blocks()


def time_calls(library, call, warmup, runs):
    """Median and minimum milliseconds of `call`, each bracketed by CUDA events."""
    if library.__name__ == "torch":
        make_event = lambda: library.cuda.Event(enable_timing=True)  # noqa: E731
        elapsed = lambda start, end: start.elapsed_time(end)  # noqa: E731
        synchronize = library.cuda.synchronize
    else:
        make_event = library.cuda.Event
        elapsed = library.cuda.get_elapsed_time
        synchronize = library.cuda.Device().synchronize
    for _ in range(warmup):
        call()
    synchronize()
    times = []
    for _ in range(runs):
        start, end = make_event(), make_event()
        start.record()
        call()
        end.record()
        end.synchronize()
        times.append(elapsed(start, end))
    return statistics.median(times), min(times)


class Reference:
    """One library call at size n: `setup(lib, n)` returns the function to time."""

    def __init__(self, name, primitive, dtype, library, unit, work, setup):
        self.name, self.primitive, self.dtype = name, primitive, dtype
        self.library, self.unit, self.work, self.setup = library, unit, work, setup


def torch_int32(torch, n):
    return torch.randint(-2**31, 2**31 - 1, (n,), dtype=torch.int32, device="cuda")


def cupy_uint32(cupy, n):
    high = cupy.random.randint(0, 2**16, size=n, dtype=cupy.uint32)
    low = cupy.random.randint(0, 2**16, size=n, dtype=cupy.uint32)
    return (high << 16) | low


def copy_torch(torch, n):
    x, y = torch_int32(torch, n), torch.empty(n, dtype=torch.int32, device="cuda")
    return lambda: y.copy_(x)


def copy_cupy(cupy, n):
    x, y = cupy_uint32(cupy, n), cupy.empty(n, dtype=cupy.uint32)
    return lambda: cupy.copyto(y, x)


def cumsum_torch(dtype_name):
    def setup(torch, n):
        dtype = getattr(torch, dtype_name)
        if dtype == torch.int32:
            x = torch.randint(-1000, 1000, (n,), dtype=dtype, device="cuda")
        else:
            x = torch.rand(n, dtype=dtype, device="cuda")
        out = torch.empty(n, dtype=dtype, device="cuda")
        return lambda: torch.cumsum(x, 0, dtype=dtype, out=out)
    return setup


def reduce_cupy(operation, dtype_name):
    def setup(cupy, n):
        dtype = getattr(cupy, dtype_name)
        x = cupy.random.randint(-1000, 1000, size=n).astype(dtype)
        function = getattr(cupy, operation)
        return lambda: function(x)
    return setup


def sort_torch(torch, n):
    x = torch_int32(torch, n)
    return lambda: torch.sort(x)  # values and int64 indices


def sort_cupy(cupy, n):
    x = cupy_uint32(cupy, n)
    return lambda: cupy.sort(x)  # a copy of x, sorted: keys only


def mm_torch(torch, n):
    a = torch.rand(n, n, dtype=torch.float32, device="cuda")
    b = torch.rand(n, n, dtype=torch.float32, device="cuda")
    c = torch.empty(n, n, dtype=torch.float32, device="cuda")
    return lambda: torch.mm(a, b, out=c)


def rand_torch(dtype_name):
    def setup(torch, n):
        out = torch.empty(n, dtype=getattr(torch, dtype_name), device="cuda")
        if dtype_name == "float32":
            return lambda: torch.rand(n, out=out)
        return lambda: out.random_(-2**31, 2**31 - 1)
    return setup


def bytes_copied(n):
    return 8.0 * n


def elements(n):
    return float(n)


def matmul_flops(n):
    return 2.0 * n ** 3


def references_for(primitive, dtype):
    """The library calls a cl-bench record of `primitive` and `dtype` is compared with."""
    base = dtype.split("-")[0]  # "uint32-kv" -> "uint32"
    refs = []
    if primitive == "copy":
        refs.append(Reference("torch copy_", "copy", "int32", "torch", "GB/s", bytes_copied,
                              copy_torch))
        refs.append(Reference("cupy.copyto", "copy", "uint32", "cupy", "GB/s", bytes_copied,
                              copy_cupy))
    elif primitive == "scan" and base in ("int32", "uint32", "float32"):
        torch_dtype = "float32" if base == "float32" else "int32"
        refs.append(Reference(f"torch.cumsum {torch_dtype}", "scan", torch_dtype, "torch",
                              "Gelem/s", elements, cumsum_torch(torch_dtype)))
    elif primitive == "reduce" and base in ("int32", "uint32", "float32"):
        # cl-bench's reduce dtypes name the operation: "int32-sum", "float32-argmax", ...
        operation = dtype.split("-", 1)[1] if "-" in dtype else "sum"
        if operation in ("sum", "min", "max", "argmin", "argmax"):
            refs.append(Reference(f"cupy.{operation} {base}", "reduce", f"{base}-{operation}",
                                  "cupy", "Gelem/s", elements, reduce_cupy(operation, base)))
    elif primitive == "sort" and "-low" in dtype:
        pass  # keys sorted by their low bits only (KeyBits): neither library sorts by a bit range
    elif primitive == "sort":
        if dtype.endswith("-kv"):
            refs.append(Reference("torch.sort int32 keys+indices", "sort", "int32-kv", "torch",
                                  "Gkeys/s", elements, sort_torch))
        else:
            refs.append(Reference("cupy.sort uint32 keys", "sort", "uint32", "cupy", "Gkeys/s",
                                  elements, sort_cupy))
    elif primitive == "matmul" and base in ("float32", "fp32", "float"):
        refs.append(Reference("torch.mm fp32 (TF32 off)", "matmul", "float32", "torch",
                              "GFLOP/s", matmul_flops, mm_torch))
    elif primitive == "random":
        torch_dtype = "float32" if base == "float32" else "int32"
        name = "torch.rand float32" if torch_dtype == "float32" else "torch random_ int32"
        refs.append(Reference(name, "random", torch_dtype, "torch", "Gelem/s", elements,
                              rand_torch(torch_dtype)))
    return refs


def measure(libraries, ref, n, warmup, runs, cache):
    """A reference at size n, measured once per run of this script: {throughput, ...} or a note."""
    key = (ref.name, n)
    if key in cache:
        return cache[key]
    library = getattr(libraries, ref.library)
    if library is None:
        result = {"note": libraries.notes.get(ref.library, f"{ref.library} not available")}
    else:
        try:
            call = ref.setup(library, n)
            median_ms, min_ms = time_calls(library, call, warmup, runs)
            del call
            result = {"median_ms": median_ms, "min_ms": min_ms,
                      "throughput": ref.work(n) / (median_ms * 1e-3) / 1e9 if median_ms > 0
                      else None}
        except Exception as error:  # out of memory, unsupported dtype, ...
            message = str(error).strip().splitlines()[0] if str(error).strip() else ""
            result = {"note": f"{error.__class__.__name__}: {message[:120]}"}
        libraries.free_memory()
    cache[key] = result
    return result


# ---- main -----------------------------------------------------------------------------------

def figure(value):
    if value is None or value != value:
        return "-"
    magnitude = abs(value)
    decimals = 0 if magnitude >= 1000 else 1 if magnitude >= 100 else 2 if magnitude >= 10 else 3
    return f"{value:.{decimals}f}"


def print_table(rows):
    headers = ["primitive", "n", "ours (variant, dtype)", "ours", "theirs", "theirs", "ours/theirs"]
    cells = [headers]
    for r in rows:
        cells.append([r["primitive"], format_size(r["n"]), r["ours_label"], r["ours_text"],
                      r["ref"], r["theirs_text"], r["ratio_text"]])
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    right = {1, 3, 5, 6}
    for row in cells:
        print("  ".join(c.rjust(w) if i in right else c.ljust(w)
                        for i, (c, w) in enumerate(zip(row, widths))).rstrip())


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cl_bench_json", nargs="?", help="cl-bench --json output to compare with")
    parser.add_argument("--sizes", type=parse_sizes,
                        help="sizes when no cl-bench JSON is given (default 2^20,2^24,2^28)")
    parser.add_argument("--matmul-sizes", type=parse_sizes,
                        help="matmul edges when no cl-bench JSON is given (default 1024,4096,8192)")
    parser.add_argument("--primitives", default="all",
                        help="comma-separated primitives to compare (default all)")
    parser.add_argument("--runs", type=int, default=10, help="timed calls per size (median)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed calls first")
    parser.add_argument("--json", help="write the reference measurements to this file")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        parser.error(f"--runs must be at least 1 and --warmup at least 0 "
                     f"(got {args.runs} and {args.warmup})")
    wanted = None if args.primitives == "all" else set(args.primitives.split(","))
    unknown = sorted((wanted or set()) - set(PRIMITIVE_ORDER))
    if unknown:
        parser.error(f"unknown --primitives {', '.join(unknown)}; known: "
                     f"{', '.join(PRIMITIVE_ORDER)} (or all)")

    # Our records: from cl-bench's JSON, else placeholders that only ask for theirs.
    ours = []
    if args.cl_bench_json:
        try:
            with open(args.cl_bench_json, encoding="utf-8") as f:
                ours = [r for r in json.load(f) if r.get("verified")]
        except (OSError, ValueError) as error:
            print(f"compare_torch: cannot read {args.cl_bench_json}: {error}", file=sys.stderr)
            return 1
        if not ours:
            print(f"compare_torch: {args.cl_bench_json} has no verified records", file=sys.stderr)
    else:
        sizes = args.sizes or [2**20, 2**24, 2**28]
        matmul_sizes = args.matmul_sizes or [1024, 4096, 8192]
        for primitive, dtypes in [("copy", ["uint32"]), ("scan", ["int32"]),
                                  ("reduce", ["int32-sum"]),
                                  ("sort", ["uint32-kv", "uint32"]), ("matmul", ["float32"]),
                                  ("random", ["float32"])]:
            for dtype in dtypes:
                for n in (matmul_sizes if primitive == "matmul" else sizes):
                    ours.append({"primitive": primitive, "variant": None, "dtype": dtype, "n": n})
    if wanted is not None:
        ours = [r for r in ours if r["primitive"] in wanted]

    libraries = Libraries()
    print(f"compare_torch on {libraries.device_name()}: {libraries.versions()}; "
          f"median of {args.runs} after {args.warmup} warm-up calls")
    for library, note in sorted(libraries.notes.items()):
        print(f"note: {library} rows are skipped: {note}")

    order = {p: i for i, p in enumerate(PRIMITIVE_ORDER)}
    ours.sort(key=lambda r: (order.get(r["primitive"], 99), r["primitive"], r["n"],
                             r.get("variant") or "", r["dtype"]))
    cache, rows, unmatched = {}, [], set()
    for record in ours:
        refs = references_for(record["primitive"], record["dtype"])
        if not refs:
            unmatched.add((record["primitive"], record["dtype"]))
        for ref in refs:
            if getattr(libraries, ref.library) is None:
                continue  # said once above
            theirs = measure(libraries, ref, record["n"], args.warmup, args.runs, cache)
            has_ours = record.get("variant") is not None and record.get("throughput")
            ratio = (record["throughput"] / theirs["throughput"]
                     if has_ours and theirs.get("throughput") else None)
            measured = theirs.get("throughput") is not None
            unit_note = ""
            if has_ours and record.get("unit") != ref.unit:
                unit_note = f" (units differ: {record.get('unit')} vs {ref.unit})"
            rows.append({
                "primitive": record["primitive"], "n": record["n"],
                "ours_label": (f"{record['variant']}, {record['dtype']}"
                               if record.get("variant") else "-"),
                "ours_text": (f"{figure(record['throughput'])} {record.get('unit', '')}"
                              if has_ours else "-"),
                "ref": ref.name,
                "theirs_text": (f"{figure(theirs['throughput'])} {ref.unit}"
                                if measured else "skipped: " + theirs.get("note", "")),
                "ratio_text": (f"{ratio:.2f}x" if ratio else "-") + unit_note,
            })
    print()
    if rows:
        print_table(rows)
    else:
        print("nothing to compare" + (" (see the notes above)" if libraries.notes else ""))
    for primitive, dtype in sorted(unmatched):
        print(f"note: no PyTorch/CuPy reference for {primitive} {dtype}")

    if args.json:
        date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        records = []
        seen = set()
        for record in ours:
            for ref in references_for(record["primitive"], record["dtype"]):
                key = (ref.name, record["n"])
                if key in seen or key not in cache:
                    continue
                seen.add(key)
                theirs = cache[key]
                records.append({
                    "primitive": ref.primitive, "variant": ref.name, "dtype": ref.dtype,
                    "n": record["n"], "device": libraries.device_name(),
                    "driver": libraries.versions(),
                    "verified": theirs.get("throughput") is not None,
                    "status": "ok" if theirs.get("throughput") is not None else "skipped",
                    "note": theirs.get("note", ""), "median_ms": theirs.get("median_ms"),
                    "min_ms": theirs.get("min_ms"), "kernel_ms": theirs.get("median_ms"),
                    "upload_ms": None, "download_ms": None,
                    "throughput": theirs.get("throughput"), "unit": ref.unit,
                    "work": ref.work(record["n"]), "cpu_reference_ms": None,
                    "runs": args.runs, "warmup": args.warmup, "date": date,
                })
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(records, f, indent=2)
            f.write("\n")
        print(f"compare_torch: wrote {len(records)} records to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
