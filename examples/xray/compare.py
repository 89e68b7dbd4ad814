#!/usr/bin/env python3
"""NumPy and ndtile side by side on the same run files, taking turns.

    python examples/xray/compare.py [--shapes 704x768,16x352x384,...] [--frames N]
                                    [--batch B] [--reps R] [--ranks 1,2] [--dir out/compare]

For each detector shape a small run is written once (generate.write_run,
kept under --dir), then analysed R times by NumPy and by ndtile, each in
processes of its own, taking turns batch by batch: NumPy's batch k, then
ndtile's batch k (read by ndtile.io while the previous one was analysed,
and finished with a sync so no deferred work spills into the next turn),
and so on. With --ranks 1,2 ndtile takes two turns per batch: once as one
process (2 workers) and once through the launcher on 2 ranks (`ndtile
--ranks 2 --cpus 2`: one worker each, each rank reading the frames it
owns). On a machine shared with other work all of them see the same load,
so the ratios of their frames/s are meaningful even when the absolute
rates are not.

Prints one table row per shape: the median over the reps of each one's
analysis frames/s and of its per-rep ratio to NumPy, the CPU time (all
threads of all ranks) it spent per unit of NumPy's (what the ratio would be
bounded by on idle cores: 2 cores at CPU-time ratio c allow a speed-up of
up to 2 / c), on many ranks the bytes sent between the ranks per frame,
and the load average before and after.

Every analysis runs in a process started for it (NumPy's without ndtile
loaded: ndtile tunes the allocator, which changes NumPy's speed); each
process, every rank of the ranked one too, connects back to this one and
waits for its turn in a blocking read, so those not analysing take no CPU.
"""
from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import time
from multiprocessing.connection import Client, Listener
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


def serve(lib, path, frames, batch, address, authkey):
    """One analysis (every rank of it runs this): connects to the parent,
    then analyses the run one batch per request; answers each with this
    rank's wall and CPU seconds for it and the bytes it sent to other
    ranks."""
    if lib == "numpy":
        xp = numpy

        def sync():
            pass
        rank, nranks = 0, 1
    else:
        import ndtile as xp
        sync = xp._core.sync
        rank, nranks = xp.rank(), xp.nranks()
    run = xray.FileRun(path, xp)
    geo = run.geometry()
    cal = analysis.calibrate(xp, (raw for _, raw in run.batches(run.dark_path, run.n_dark, batch)),
                             geo["gain"], geo["beam_centre"], geo["beam_stop_radius"])
    pipe = analysis.Pipeline(xp, cal)
    batches = iter(run.batches(run.path, frames, batch))
    sync()

    def sent():
        return xp.comm_stats()["send_bytes"] if nranks > 1 else 0

    conn = Client(address, authkey=authkey)
    conn.send(("ready", lib, rank, nranks))
    while True:
        cmd = conn.recv()
        t0, c0, s0 = time.perf_counter(), time.process_time(), sent()
        if cmd == "batch":
            nxt = next(batches, None)
            if nxt is None:
                conn.send(None)
                continue
            start, raw = nxt
            stop = start + raw.shape[0]
            # the read of this batch is not timed (ndtile's next one starts
            # here, on the reader thread, and overlaps this analysis)
            t0, c0, s0 = time.perf_counter(), time.process_time(), sent()
            pipe.process(raw, run.i0[start:stop], run.laser_on[start:stop], start)
        elif cmd == "finish":
            pipe.finish()
        else:
            conn.close()
            return
        sync()   # no deferred work spills into the other library's turn
        conn.send((time.perf_counter() - t0, time.process_time() - c0, sent() - s0))


# The analyses of one rep: label -> (library, ranks)
def contenders(ranks):
    out = {"numpy": ("numpy", 1)}
    for n in ranks:
        out["ndtile" if n == 1 else f"ndtile x{n}"] = ("ndtile", n)
    return out


def start(label, lib, nranks, path, frames, batch, address, authkey):
    """Starts one analysis in processes of its own (through the launcher
    for many ranks); they connect back to `address`."""
    env = dict(os.environ, COMPARE_AUTHKEY=authkey.hex())
    serve_args = [__file__, "--serve", lib, "--path", path, "--frames", str(frames),
                  "--batch", str(batch), "--address", f"{address[0]}:{address[1]}"]
    if lib == "numpy":
        cmd = [sys.executable] + serve_args
    else:
        cmd = [sys.executable, "-m", "ndtile", "--ranks", str(nranks),
               "--cpus", str(os.cpu_count())] + serve_args
    return subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL)


def one_rep(path, frames, batch, ranks):
    """Every contender over the run, batch by batch, taking turns; returns
    per contender its analysis wall seconds (the slowest rank's), CPU
    seconds (all ranks) and bytes sent between ranks."""
    authkey = secrets.token_bytes(16)
    who = contenders(ranks)
    with Listener(("127.0.0.1", 0), authkey=authkey) as listener:
        procs = {k: start(k, lib, n, path, frames, batch, listener.address, authkey)
                 for k, (lib, n) in who.items()}
        conns = {k: [None] * n for k, (_, n) in who.items()}
        labels = {(lib, n): k for k, (lib, n) in who.items()}
        for _ in range(sum(n for _, n in who.values())):
            c = listener.accept()
            _, lib, rank, nranks = c.recv()
            conns[labels[(lib, nranks)]][rank] = c
        secs = {k: 0.0 for k in who}
        cpu = {k: 0.0 for k in who}
        moved = {k: 0 for k in who}
        try:
            for cmd in ["batch"] * -(-frames // batch) + ["finish"]:
                for k in who:
                    for c in conns[k]:
                        c.send(cmd)
                    got = [c.recv() for c in conns[k]]
                    if got[0] is not None:
                        secs[k] += max(g[0] for g in got)
                        cpu[k] += sum(g[1] for g in got)
                        moved[k] += sum(g[2] for g in got)
        finally:
            for k in who:
                for c in conns[k]:
                    if c is not None:
                        c.send("stop")
            for p in procs.values():
                p.wait(120)
    return secs, cpu, moved


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shapes", default="704x768,16x352x384,1024x1024,2048x2048")
    p.add_argument("--frames", default="64,32,48,16",
                   help="frames per shape (one number, or one per shape)")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--dark", type=int, default=16)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--ranks", default="1",
                   help="ndtile's rank counts, each a contender of its own (1,2: one "
                        "process, and 2 ranks through the launcher)")
    p.add_argument("--dir", default="out/compare")
    # a contender's own process (started by this script)
    p.add_argument("--serve", help=argparse.SUPPRESS)
    p.add_argument("--path", help=argparse.SUPPRESS)
    p.add_argument("--address", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve:
        host, port = args.address.rsplit(":", 1)
        serve(args.serve, args.path, int(args.frames), args.batch, (host, int(port)),
              bytes.fromhex(os.environ["COMPARE_AUTHKEY"]))
        return
    import ndtile   # the settings line only; the analyses run in processes of their own

    shapes = args.shapes.split(",")
    frames = [int(v) for v in args.frames.split(",")]
    frames = frames * len(shapes) if len(frames) == 1 else frames
    ranks = [int(v) for v in args.ranks.split(",")]
    os.makedirs(args.dir, exist_ok=True)
    print(f"workers {ndtile._core.workers()}, tile {ndtile._core.tile_bytes()} bytes, "
          f"cpus {os.cpu_count()}, ndtile on ranks {args.ranks} (--cpus {os.cpu_count()})")
    others = [k for k in contenders(ranks) if k != "numpy"]
    head = "| detector | frames | NumPy frames/s | "
    head += " | ".join(f"{k} frames/s | {k}/NumPy (median, min-max) | CPU {k}/NumPy"
                       for k in others)
    if any(n > 1 for n in ranks):
        head += " | MB sent/frame"
    head += " | load |"
    print(head)
    print("|" + " --- |" * (head.count("|") - 1))
    for shape, n in zip(shapes, frames):
        path = ensure_run(args.dir, shape, n, args.dark)
        load0 = os.getloadavg()[0]
        reps = [one_rep(path, n, args.batch, ranks) for _ in range(args.reps)]
        load1 = os.getloadavg()[0]
        row = f"| {shape} | {n} | {statistics.median(n / r[0]['numpy'] for r in reps):.1f} | "
        cells = []
        for k in others:
            fps = statistics.median(n / r[0][k] for r in reps)
            ratios = [r[0]["numpy"] / r[0][k] for r in reps]
            cpu = statistics.median(r[1][k] / r[1]["numpy"] for r in reps)
            cells.append(f"{fps:.1f} | {statistics.median(ratios):.2f} "
                         f"({min(ratios):.2f}-{max(ratios):.2f}) | {cpu:.2f}")
        row += " | ".join(cells)
        if any(r > 1 for r in ranks):
            row += " | " + ", ".join(f"{statistics.median(r[2][k] for r in reps) / n / 1e6:.2f}"
                                     for k in others if not k == "ndtile")
        row += f" | {load0:.1f}-{load1:.1f} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
