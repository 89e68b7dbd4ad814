#!/usr/bin/env python3
"""NumPy and ndtile side by side on the same run files, in one process.

    python examples/xray/compare.py [--shapes 704x768,16x352x384,...] [--frames N]
                                    [--batch B] [--reps R] [--dir out/compare]

For each detector shape a small run is written once (generate.write_run,
kept under --dir), then analysed R times by both libraries with their
batches interleaved: NumPy's batch k, then ndtile's batch k (read by
ndtile.io while the previous one was analysed, and finished with a sync so
no deferred work spills into NumPy's time), and so on. On a machine shared
with other work both see the same load, so the ratio of their frames/s is
meaningful even when the absolute rates are not. Prints one table row per
shape: the median over the reps of each library's analysis frames/s and of
the per-rep ratio, the CPU time (all threads) ndtile spent per unit of
NumPy's (what the ratio would be bounded by on idle cores: 2 cores at
CPU-time ratio c allow a speed-up of up to 2 / c), and the load average
before and after.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import analysis  # noqa: E402
import generate  # noqa: E402
import run as xray  # noqa: E402


def ensure_run(directory, shape, frames, dark, seed=0):
    path = os.path.join(directory, f"run-{shape}-{frames}.h5")
    if not os.path.exists(path):
        sim = generate.Simulator(generate.parse_shape(shape), seed=seed)
        generate.write_run(path, sim, frames, dark)
    return path


def one_rep(path, frames, batch, nd):
    """Both libraries over the run, batch by batch; returns their analysis
    seconds."""
    secs, cpu = {}, {}
    pipes, iters = {}, {}
    for name, xp in (("numpy", numpy), ("ndtile", nd)):
        run = xray.FileRun(path, xp)
        cal = analysis.calibrate(xp, (raw for _, raw in run.batches(run.dark_path, run.n_dark,
                                                                       batch)),
                                 **{"gain": run.geometry()["gain"],
                                    "beam_centre": run.geometry()["beam_centre"],
                                    "beam_stop_radius": run.geometry()["beam_stop_radius"]})
        pipes[name] = (run, analysis.Pipeline(xp, cal))
        iters[name] = iter(run.batches(run.path, frames, batch))
        secs[name] = cpu[name] = 0.0
    nd._core.sync()
    done = False
    while not done:
        for name in ("numpy", "ndtile"):
            nxt = next(iters[name], None)
            if nxt is None:
                done = True
                continue
            start, raw = nxt
            run, pipe = pipes[name]
            stop = start + raw.shape[0]
            t0, c0 = time.perf_counter(), time.process_time()
            pipe.process(raw, run.i0[start:stop], run.laser_on[start:stop], start)
            if name == "ndtile":
                nd._core.sync()
            secs[name] += time.perf_counter() - t0
            cpu[name] += time.process_time() - c0
    for name in ("numpy", "ndtile"):
        t0, c0 = time.perf_counter(), time.process_time()
        pipes[name][1].finish()
        if name == "ndtile":
            nd._core.sync()
        secs[name] += time.perf_counter() - t0
        cpu[name] += time.process_time() - c0
    return secs, cpu


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shapes", default="704x768,16x352x384,1024x1024,2048x2048")
    p.add_argument("--frames", default="64,32,48,16",
                   help="frames per shape (one number, or one per shape)")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--dark", type=int, default=16)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--dir", default="out/compare")
    args = p.parse_args(argv)
    import ndtile

    shapes = args.shapes.split(",")
    frames = [int(v) for v in args.frames.split(",")]
    frames = frames * len(shapes) if len(frames) == 1 else frames
    os.makedirs(args.dir, exist_ok=True)
    print(f"workers {ndtile._core.workers()}, tile {ndtile._core.tile_bytes()} bytes, "
          f"cpus {os.cpu_count()}")
    print("| detector | frames | NumPy frames/s | ndtile frames/s | ratio (median, min-max) "
          "| CPU time ndtile/NumPy | load |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for shape, n in zip(shapes, frames):
        path = ensure_run(args.dir, shape, n, args.dark)
        load0 = os.getloadavg()[0]
        reps = [one_rep(path, n, args.batch, ndtile) for _ in range(args.reps)]
        rows, cpus = [r[0] for r in reps], [r[1] for r in reps]
        load1 = os.getloadavg()[0]
        fps = {k: statistics.median(n / r[k] for r in rows) for k in ("numpy", "ndtile")}
        ratios = [r["numpy"] / r["ndtile"] for r in rows]
        cpu = statistics.median(c["ndtile"] / c["numpy"] for c in cpus)
        print(f"| {shape} | {n} | {fps['numpy']:.1f} | {fps['ndtile']:.1f} | "
              f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) | "
              f"{cpu:.2f} | {load0:.1f}-{load1:.1f} |", flush=True)


if __name__ == "__main__":
    main()
