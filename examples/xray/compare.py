#!/usr/bin/env python3
"""NumPy and ndtile side by side on the same run files, in one process.

    python examples/xray/compare.py [--shapes 704x768,16x352x384,...] [--frames N]
                                    [--batch B] [--reps R] [--dir out/compare]

For each detector shape a small run is written once (generate.write_run,
kept under --dir), then analysed R times by both libraries, each in a
process of its own, taking turns batch by batch: NumPy's batch k, then
ndtile's batch k (read by ndtile.io while the previous one was analysed,
and finished with a sync so no deferred work spills into NumPy's turn), and
so on. On a machine shared
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


def serve(lib, path, frames, batch, conn):
    """One library in a process of its own (NumPy's without ndtile loaded:
    ndtile tunes the allocator, which changes NumPy's speed), analysing the
    run one batch per request from the parent; answers each with the wall
    and CPU seconds of that batch."""
    if lib == "numpy":
        xp = numpy

        def sync():
            pass
    else:
        import ndtile as xp
        sync = xp._core.sync
    run = xray.FileRun(path, xp)
    geo = run.geometry()
    cal = analysis.calibrate(xp, (raw for _, raw in run.batches(run.dark_path, run.n_dark, batch)),
                             geo["gain"], geo["beam_centre"], geo["beam_stop_radius"])
    pipe = analysis.Pipeline(xp, cal)
    batches = iter(run.batches(run.path, frames, batch))
    sync()
    conn.send(("ready", xp.__name__))
    while True:
        cmd = conn.recv()
        t0, c0 = time.perf_counter(), time.process_time()
        if cmd == "batch":
            nxt = next(batches, None)
            if nxt is None:
                conn.send(None)
                continue
            start, raw = nxt
            stop = start + raw.shape[0]
            # the read of this batch is not timed (ndtile's next one starts
            # here, on the reader thread, and overlaps this analysis)
            t0, c0 = time.perf_counter(), time.process_time()
            pipe.process(raw, run.i0[start:stop], run.laser_on[start:stop], start)
        elif cmd == "finish":
            pipe.finish()
        else:
            return
        sync()   # no deferred work spills into the other library's turn
        conn.send((time.perf_counter() - t0, time.process_time() - c0))


def one_rep(path, frames, batch):
    """Both libraries over the run, batch by batch, each in its own
    process, taking turns; returns their analysis wall and CPU seconds."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    procs, conns = {}, {}
    for lib in ("numpy", "ndtile"):
        parent, child = ctx.Pipe()
        procs[lib] = ctx.Process(target=serve, args=(lib, path, frames, batch, child))
        procs[lib].start()
        conns[lib] = parent
    for lib in ("numpy", "ndtile"):
        assert conns[lib].recv()[0] == "ready"
    secs = {lib: 0.0 for lib in conns}
    cpu = {lib: 0.0 for lib in conns}
    try:
        for cmd in ["batch"] * -(-frames // batch) + ["finish"]:
            for lib in ("numpy", "ndtile"):
                conns[lib].send(cmd)
                got = conns[lib].recv()
                if got is not None:
                    secs[lib] += got[0]
                    cpu[lib] += got[1]
    finally:
        for lib in conns:
            conns[lib].send("stop")
            procs[lib].join(60)
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
    import ndtile   # the settings line only; the analyses run in processes of their own

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
        reps = [one_rep(path, n, args.batch) for _ in range(args.reps)]
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
