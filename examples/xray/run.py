#!/usr/bin/env python3
"""ndtile's flagship example: find weak, rare signals in X-ray detector frames.

    python examples/xray/run.py [--frames N] [--shape 1024x1024|704x768|16x352x384]
                                [--seed S] [--batch B] [--dark N] [--output DIR]
                                [--lib numpy|ndtile] [--input RUN.h5]

Simulates an LCLS-like run (generate.py), analyses every pixel of every frame
with the same plain-NumPy code on either NumPy or ndtile (analysis.py), checks
the result against the planted ground truth, and writes report.txt and
figure.png to --output.  Generation and analysis are timed separately; the
analysis rate is what ndtile is meant to improve.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy

# Run as a file from any directory, its siblings are importable because Python
# puts the script's folder first on sys.path; make that explicit so it also
# holds under `python -P` or when this module is imported from elsewhere.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import analysis  # noqa: E402
import generate  # noqa: E402

DEFAULT_SHAPE = "1024x1024"
DEFAULT_FRAMES = 400     # ~45-60 s for the whole NumPy run on a quiet 2-core machine
DEFAULT_BATCH = 8
DEFAULT_DARK = 32


def load_array_module(name: str):
    """The array library the analysis runs on.  No silent fallback: a run
    labelled ndtile must really be ndtile."""
    if name == "numpy":
        return numpy
    if name == "ndtile":
        try:
            import ndtile
        except ImportError as exc:
            raise SystemExit(f"error: --lib ndtile, but ndtile cannot be imported ({exc}).\n"
                             "Build/install ndtile, or run with --lib numpy.") from exc
        return ndtile
    raise SystemExit(f"error: unknown --lib {name!r} (expected numpy or ndtile)")


class Stopwatch:
    """Accumulates the wall time spent inside `with` blocks."""

    def __init__(self):
        self.seconds = 0.0

    def __enter__(self):
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds += time.perf_counter() - self._t0


class Progress:
    """A plain-text progress bar on stderr (redrawn in place with '\\r')."""

    def __init__(self, total: int, stream=sys.stderr, width: int = 30):
        self.total, self.stream, self.width = total, stream, width

    def update(self, done: int, note: str = ""):
        filled = self.width * done // max(self.total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} frames {note}")
        self.stream.flush()

    def close(self):
        self.stream.write("\n")
        self.stream.flush()


def run_pipeline(xp, sim: generate.Simulator, n_frames: int, batch: int = DEFAULT_BATCH,
                 n_dark: int = DEFAULT_DARK, progress=None, on_batch=None):
    """Dark calibration + analysis of frames [0, n_frames) of `sim`'s run.

    on_batch(batch_truth, batch_result), if given, is called after each batch
    outside the timed sections (tests use it for pixel-level checks).
    Returns (calibration, result, info) where info holds timings and the
    per-frame planted totals used to check the photon counts.
    """
    gen, dark_gen, cal_time, ana = Stopwatch(), Stopwatch(), Stopwatch(), Stopwatch()
    geometry = sim.geometry()

    def dark_batches():
        for start in range(0, n_dark, batch):
            with dark_gen:
                raw = sim.frames(start, min(start + batch, n_dark), dark=True).raw
            yield raw

    with cal_time:
        cal = analysis.calibrate(xp, dark_batches(), geometry["gain"],
                                 geometry["beam_centre"], geometry["beam_stop_radius"])
    cal_time.seconds -= dark_gen.seconds

    pipe = analysis.Pipeline(xp, cal, n_weak=sim.n_weak)
    planted_totals, hit_image = [], None
    good = sim.mask
    for start in range(0, n_frames, batch):
        stop = min(start + batch, n_frames)
        with gen:
            data = sim.frames(start, stop)
        with ana:
            res = pipe.process(data.raw, data.i0, data.laser_on, start)
        # Bookkeeping against the ground truth, not part of the analysis time.
        planted_totals.append(numpy.where(good, data.counts, 0).reshape(stop - start, -1)
                              .sum(axis=1, dtype=numpy.int64))
        if hit_image is None and res.hit.any():
            b = int(numpy.flatnonzero(res.hit)[0])
            hit_image = (start + b, numpy.asarray(res.photons[b]))
        if on_batch is not None:
            on_batch(data, res)
        if progress is not None:
            progress.update(stop, f"| generate {stop / gen.seconds:5.1f} fps"
                                  f" | analyse {stop / ana.seconds:5.1f} fps")
    with ana:
        result = pipe.finish()
    info = {"generate_s": gen.seconds, "dark_generate_s": dark_gen.seconds,
            "calibrate_s": cal_time.seconds, "analyse_s": ana.seconds,
            "planted_totals": numpy.concatenate(planted_totals), "hit_image": hit_image,
            "n_dark": n_dark, "batch": batch}
    return cal, result, info


class FileRun:
    """A run on disk (generate.write_run): what the analysis may see of it -
    the frames, the beam monitor and event codes, the facility's
    calibration, and the dark run. Frames come in batches that, on ndtile,
    are read straight into tiles by the ranks that own them while the
    previous batch is analysed (ndtile.io.Batches); on NumPy, with h5py."""

    def __init__(self, path, xp):
        import h5py

        self.path, self.xp = str(path), xp
        self.dark_path = generate.run_paths(self.path)[1]
        if not os.path.exists(self.path):
            raise SystemExit(f"error: --input {self.path}: no such file")
        with h5py.File(self.path, "r") as f:
            frames = f[generate.FRAMES]
            self.n_frames, self.shape = frames.shape[0], tuple(frames.shape[1:])
            self.i0 = f[generate.I0][()]
            self.laser_on = f[generate.LASER_ON][()]
            self._geometry = {"gain": f[generate.GAIN][()],
                              "beam_centre": f[generate.BEAM_CENTRE][()],
                              "beam_stop_radius": float(f.attrs["beam_stop_radius"])}
        with h5py.File(self.dark_path, "r") as f:
            self.n_dark = f[generate.FRAMES].shape[0]
        self.read_s = self.read_bytes = 0   # NumPy: reads done on the caller's thread

    def geometry(self):
        return self._geometry

    def batches(self, path, n, batch):
        """(first frame, raw) over frames [0, n) of the file at path."""
        if self.xp is numpy:
            import h5py

            with h5py.File(path, "r") as f:
                d = f[generate.FRAMES]
                for s in range(0, n, batch):
                    t0 = time.perf_counter()
                    raw = d[s:min(s + batch, n)]
                    self.read_s += time.perf_counter() - t0
                    self.read_bytes += raw.nbytes
                    yield s, raw
            return
        from ndtile import io

        yield from io.Batches(path, generate.FRAMES, batch, stop=n)


def run_pipeline_file(xp, run: FileRun, truth, n_frames: int, batch: int = DEFAULT_BATCH,
                      progress=None, on_batch=None):
    """run_pipeline, with the frames, I0, laser flags and dark run read from
    the files of `run` (the truth only checks the result, as before)."""
    wait, cal_time, ana = Stopwatch(), Stopwatch(), Stopwatch()
    geometry = run.geometry()
    if run.xp is not numpy:
        from ndtile import io
        io.stats(reset=True)

    def dark_batches():
        for _, raw in run.batches(run.dark_path, run.n_dark, batch):
            yield raw

    with cal_time:
        cal = analysis.calibrate(xp, dark_batches(), geometry["gain"],
                                 geometry["beam_centre"], geometry["beam_stop_radius"])
    pipe = analysis.Pipeline(xp, cal, n_weak=truth.n_weak)
    hit_image = None
    it = iter(run.batches(run.path, n_frames, batch))
    while True:
        with wait:   # the read not hidden behind the previous batch's analysis
            nxt = next(it, None)
        if nxt is None:
            break
        start, raw = nxt
        stop = start + raw.shape[0]
        with ana:
            res = pipe.process(raw, run.i0[start:stop], run.laser_on[start:stop], start)
        if hit_image is None and res.hit.any():
            b = int(numpy.flatnonzero(res.hit)[0])
            hit_image = (start + b, numpy.asarray(res.photons[b]))
        if on_batch is not None:
            on_batch(start, res)
        if progress is not None:
            progress.update(stop, f"| analyse {stop / ana.seconds:5.1f} fps")
    with ana:
        result = pipe.finish()
    if run.xp is numpy:
        read = {"bytes": run.read_bytes, "seconds": run.read_s}
    else:
        read = io.stats()
    per_rank = [read["bytes"]]
    if getattr(xp, "nranks", lambda: 1)() > 1:
        from ndtile import _ranks
        per_rank = [_ranks.bcast(read["bytes"] if xp.rank() == r else None, r)
                    for r in range(xp.nranks())]
    info = {"generate_s": 0.0, "dark_generate_s": 0.0, "calibrate_s": cal_time.seconds,
            "analyse_s": ana.seconds, "planted_totals": truth.planted_totals[:n_frames],
            "hit_image": hit_image, "n_dark": run.n_dark, "batch": batch,
            "input": run.path, "read_bytes_per_rank": per_rank, "read_s": read["seconds"],
            "read_wait_s": wait.seconds}
    return cal, result, info


def match_peaks(found, planted, tol: float = 1.0, associate: float = 3.0):
    """Compare found and planted peaks (tables of frame, panel, y, x, ...).

    A planted peak is recovered if a found peak of the same frame and panel
    lies within `tol` px.  A found peak is false if no planted peak lies
    within `associate` px (half the minimum peak spacing), or if it is a
    second detection of an already detected planted peak.  Returns
    (recovered (planted,), number of false peaks, distance of each recovered
    planted peak to its nearest found peak).
    """
    same = (found[:, None, 0] == planted[None, :, 0]) & (found[:, None, 1] == planted[None, :, 1])
    dist = numpy.hypot(found[:, None, 2] - planted[None, :, 2], found[:, None, 3] - planted[None, :, 3])
    dist = numpy.where(same, dist, numpy.inf)
    if len(found) == 0 or len(planted) == 0:
        return numpy.zeros(len(planted), bool), len(found), numpy.empty(0)
    to_found = dist.min(axis=0)                 # each planted -> nearest found
    recovered = to_found <= tol
    nearest = dist.argmin(axis=1)               # each found -> nearest planted
    associated = dist.min(axis=1) <= associate
    n_false = int((~associated).sum() + associated.sum() - len(numpy.unique(nearest[associated])))
    return recovered, n_false, to_found[recovered]


def evaluate(sim, cal, result, info) -> dict:
    """Compare the analysis with the planted truth; every number in the report."""
    n = result.n_frames
    truth = sim.truth(n)
    mask = numpy.asarray(cal.mask)
    recovered, n_false, err = match_peaks(result.peaks, truth["peaks"])
    planted_hits = set(truth["hits"].tolist())
    found_hits = set(result.hits.tolist())
    weak_found = {tuple(p) for p in result.weak_spots.tolist()}
    weak_planted = {tuple(p) for p in truth["weak_pixels"].tolist()}
    raw_bytes = n * math.prod(sim.shape) * 2
    return {
        "shape": "x".join(map(str, sim.shape)),
        "frames": n,
        "dark_frames": info["n_dark"],
        "seed": sim.seed,
        "masked_pixels": int((~mask).sum()),
        "mask_errors": int((mask != truth["mask"]).sum()),
        "planted_bad_pixels": int(truth["bad_pixels"].sum()),
        "count_frames_exact": int((result.totals.astype(numpy.int64) == info["planted_totals"]).sum()),
        "photons_total": int(result.totals.sum()),
        "hits_found": len(found_hits),
        "hits_planted": len(planted_hits),
        "hits_matched": len(found_hits & planted_hits),
        "peaks_planted": len(truth["peaks"]),
        "peaks_found": len(result.peaks),
        "peaks_recovered": int(recovered.sum()),
        "peaks_recovered_pct": 100.0 * recovered.mean() if len(recovered) else 100.0,
        "false_peaks": n_false,
        "centroid_rms_px": float(numpy.sqrt(numpy.mean(err ** 2))) if len(err) else 0.0,
        "weak_planted": len(weak_planted),
        "weak_recovered": len(weak_found & weak_planted),
        "weak_min_D": float(result.weak_values.min()),
        "next_D": result.next_value,
        "profile_peak_bin": result.profile_peak,
        "r0": float(truth["r0"]),
        "generate_s": info["generate_s"],
        "generate_fps": n / info["generate_s"] if info["generate_s"] else 0.0,
        "analyse_s": info["analyse_s"],
        "analyse_fps": n / info["analyse_s"],
        "analyse_GBps": raw_bytes / info["analyse_s"] / 1e9,
        "calibrate_s": info["calibrate_s"],
        "batch": info["batch"],
        # a run read from disk: what was read, how fast, how long the
        # analysis waited for reads the prefetch did not hide
        **({"input": info["input"], "read_bytes_per_rank": info["read_bytes_per_rank"],
            "read_s": info["read_s"], "read_wait_s": info["read_wait_s"]}
           if info.get("input") else {}),
    }


def format_report(v: dict, lib: str) -> str:
    ok = lambda cond: "OK" if cond else "FAIL"  # noqa: E731
    lines = [
        f"ndtile X-ray example: {v['frames']} frames of {v['shape']} (seed {v['seed']}, "
        f"batch {v['batch']}, {v['dark_frames']} dark frames), analysed with {lib}",
        "",
        f"mask             {v['masked_pixels']} pixels masked; differs from planted bad pixels "
        f"+ beam stop at {v['mask_errors']} pixels  [{ok(v['mask_errors'] == 0)}]",
        f"photon counts    per-frame totals on good pixels equal the planted counts in "
        f"{v['count_frames_exact']}/{v['frames']} frames ({v['photons_total']} photons)  "
        f"[{ok(v['count_frames_exact'] == v['frames'])}]",
        f"hits             found {v['hits_found']}, planted {v['hits_planted']}, "
        f"in common {v['hits_matched']}  "
        f"[{ok(v['hits_found'] == v['hits_planted'] == v['hits_matched'])}]",
        f"Bragg peaks      {v['peaks_recovered']}/{v['peaks_planted']} planted peaks recovered "
        f"within 1 px ({v['peaks_recovered_pct']:.1f} %), centroid rms error "
        f"{v['centroid_rms_px']:.2f} px  [{ok(v['peaks_recovered_pct'] >= 95)}]",
        f"false peaks      {v['false_peaks']} of {v['peaks_found']} found  "
        f"[{ok(v['false_peaks'] <= 1)}]",
        f"weak spots       {v['weak_recovered']}/{v['weak_planted']} planted spots are the "
        f"{v['weak_planted']} brightest pixels of D (weakest D {v['weak_min_D']:.3f}, "
        f"next {v['next_D']:.3f} photons/I0)  [{ok(v['weak_recovered'] == v['weak_planted'])}]",
        f"radial profile   peaks in bin [{v['profile_peak_bin']}, {v['profile_peak_bin'] + 1}) px; "
        f"ring planted at r0 = {v['r0']:.1f} px  [{ok(abs(v['profile_peak_bin'] - math.floor(v['r0'])) <= 1)}]",
        "",
    ]
    if v.get("input") is None:
        lines.append(f"generation       {v['generate_s']:7.2f} s  {v['generate_fps']:7.1f} frames/s  "
                     f"(simulation, plain NumPy)")
    else:
        per_rank = v["read_bytes_per_rank"]
        ranks = "" if len(per_rank) == 1 else \
            " (" + ", ".join(f"rank {r}: {b / 1e6:.1f}" for r, b in enumerate(per_rank)) + ")"
        rate = per_rank[0] / v["read_s"] / 1e9 if v["read_s"] else 0.0
        lines.append(f"input            {v['input']}: {sum(per_rank) / 1e6:.1f} MB read{ranks}, "
                     f"{rate:.2f} GB/s per reader, {v['read_wait_s']:.2f} s waited for reads")
    lines += [
        f"analysis         {v['analyse_s']:7.2f} s  {v['analyse_fps']:7.1f} frames/s  "
        f"{v['analyse_GBps']:.3f} GB/s of raw data  ({lib})",
        f"dark calibration {v['calibrate_s']:7.2f} s  (not included above)",
    ]
    return "\n".join(lines) + "\n"


def _mosaic(img):
    """(P, H, W) panels -> one 2-D image on a grid (2-D images pass through),
    and a function mapping (panel, y, x) to mosaic coordinates."""
    if img.ndim == 2:
        return img, lambda p, y, x: (y, x)
    P, H, W = img.shape
    cols = math.ceil(math.sqrt(P))
    rows, gap = math.ceil(P / cols), 4
    out = numpy.full((rows * (H + gap) - gap, cols * (W + gap) - gap), numpy.nan)
    for p in range(P):
        r, c = divmod(p, cols)
        out[r * (H + gap): r * (H + gap) + H, c * (W + gap): c * (W + gap) + W] = img[p]
    return out, lambda p, y, x: ((p // cols) * (H + gap) + y, (p % cols) * (W + gap) + x)


def make_figure(path, sim, cal, result, info, values):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    truth = sim.truth(result.n_frames)
    planted = {tuple(p) for p in truth["weak_pixels"].tolist()}
    fig, axes = plt.subplots(2, 2, figsize=(12, 11))

    # (a) The difference image: the weak spots are invisible in any frame.
    ax = axes[0, 0]
    D, to_xy = _mosaic(numpy.where(numpy.asarray(cal.mask), numpy.asarray(result.difference), 0))
    # Single-pixel spots vanish when a large image is shrunk to screen size;
    # a block maximum keeps them visible.
    f = max(1, math.ceil(max(D.shape) / 512))
    h, w = D.shape[0] // f * f, D.shape[1] // f * f
    D = D[:h, :w].reshape(h // f, f, w // f, f).max(axis=(1, 3))
    lim = float(result.weak_values.max())
    im = ax.imshow(D, cmap="RdBu_r", vmin=-lim, vmax=lim, interpolation="nearest",
                   extent=(-0.5, w - 0.5, h - 0.5, -0.5))
    fig.colorbar(im, ax=ax, shrink=0.8, label="photons per unit I0 per frame")
    for spot in result.weak_spots.tolist():
        p, y, x = spot if len(spot) == 3 else [0] + spot
        yy, xx = to_xy(p, y, x)
        ax.add_patch(plt.Circle((xx, yy), max(h, w) / 50, fill=False, lw=1.5,
                                color="lime" if tuple(spot) in planted else "red"))
    ax.set_title("D = S_on/ΣI0_on − S_off/ΣI0_off" + (f"  ({f}x{f} block max)" if f > 1 else "") +
                 f"\n{len(result.weak_spots)} brightest pixels circled: "
                 f"{values['weak_recovered']} planted (green), "
                 f"{len(result.weak_spots) - values['weak_recovered']} not (red)")

    # (b) One hit frame and the peaks found in it.
    ax = axes[0, 1]
    if info["hit_image"] is not None:
        frame, image = info["hit_image"]
        img, to_xy = _mosaic(image)
        ax.imshow(img, cmap="magma", vmin=0, vmax=4, interpolation="nearest")
        pk = result.peaks[result.peaks[:, 0] == frame]
        yy, xx = to_xy(pk[:, 1].astype(int), pk[:, 2], pk[:, 3])
        ax.scatter(xx, yy, s=60, facecolors="none", edgecolors="cyan", linewidths=1)
        ax.set_title(f"hit frame {frame}: {len(pk)} peaks found (circled)")
    else:
        ax.set_title("no hit frame in this run")

    # (c) Maximum over all hit frames: every Bragg peak of the run.
    ax = axes[1, 0]
    img, _ = _mosaic(numpy.asarray(result.hit_max))
    ax.imshow(img, cmap="magma", vmin=0, vmax=4, interpolation="nearest")
    ax.set_title(f"maximum over the {len(result.hits)} hit frames (photons)")

    # (d) The radial profile and the planted ring.
    ax = axes[1, 1]
    r = numpy.arange(len(result.mean_profile)) + 0.5
    full = cal.full_bins
    ax.plot(r[:full], result.mean_profile[:full], lw=1)
    ax.axvline(truth["r0"], color="red", ls="--", label=f"planted r0 = {truth['r0']:.1f} px")
    ax.axvline(result.profile_peak + 0.5, color="k", ls=":",
               label=f"profile peak: bin {result.profile_peak}")
    ax.set_xlabel("radius (px)")
    ax.set_ylabel("photons per pixel per frame")
    ax.set_title("mean radial profile")
    ax.legend()

    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", help="analyse the run in this file (generate.py writes "
                        "one) instead of simulating frames in memory")
    parser.add_argument("--frames", type=int, default=None,
                        help=f"frames to analyse (default {DEFAULT_FRAMES}, or all in --input)")
    parser.add_argument("--shape", default=DEFAULT_SHAPE, help="HxW or PxHxW, e.g. 16x352x384")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="frames per batch")
    parser.add_argument("--dark", type=int, default=DEFAULT_DARK, help="frames in the dark run")
    parser.add_argument("--output", default="out/xray")
    parser.add_argument("--lib", default="ndtile", choices=["numpy", "ndtile"])
    args = parser.parse_args(argv)

    xp = load_array_module(args.lib)
    if args.input is None:
        try:
            shape = generate.parse_shape(args.shape)
        except ValueError as exc:
            parser.error(str(exc))
        if args.frames is None:
            args.frames = DEFAULT_FRAMES
    if (args.frames is not None and args.frames < 2) or args.batch < 1 or args.dark < 2:
        parser.error("need --frames >= 2, --batch >= 1 and --dark >= 2")

    # On many ranks (`ndtile --ranks N examples/xray/run.py`) every rank runs
    # this script; rank 0 alone draws the progress bar and writes the files.
    first = getattr(xp, "rank", lambda: 0)() == 0
    stream = sys.stderr if first else open(os.devnull, "w")
    if args.input is None:
        sim = generate.Simulator(shape, seed=args.seed)
        progress = Progress(args.frames, stream=stream)
        cal, result, info = run_pipeline(xp, sim, args.frames, args.batch, args.dark,
                                         progress=progress)
    else:
        run = FileRun(args.input, xp)
        sim = generate.RunTruth(args.input)   # checks the result only
        n = run.n_frames if args.frames is None else args.frames
        if n > run.n_frames:
            parser.error(f"--frames {n}: {args.input} holds {run.n_frames} frames")
        progress = Progress(n, stream=stream)
        cal, result, info = run_pipeline_file(xp, run, sim, n, args.batch, progress=progress)
    progress.close()

    values = evaluate(sim, cal, result, info)
    report = format_report(values, args.lib)
    out = Path(args.output)
    if first:
        out.mkdir(parents=True, exist_ok=True)
        (out / "report.txt").write_text(report)
    # every rank draws (reading an array is a step all ranks take together);
    # rank 0 saves
    make_figure(out / "figure.png" if first else None, sim, cal, result, info, values)
    print(report, end="")
    print(f"wrote {out / 'report.txt'} and {out / 'figure.png'}")


if __name__ == "__main__":
    main()
