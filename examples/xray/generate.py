"""Synthetic LCLS-like X-ray detector data, with the ground truth planted in it.

This module simulates the detector; it is *not* the analysis, so it uses plain
NumPy throughout (see analysis.py for the part that runs on ndtile).

Every random number comes from a counter-based generator (Philox) whose key is
derived from (seed, stream, frame, tile), where a tile is a fixed block of
TILE_ROWS rows of one panel.  Any frame, or any row block of a frame, can
therefore be regenerated anywhere, in any order, and the data never depend on
how frames are batched or which worker produced them.

The detector model follows /work/shared/XRAY-WORKLOAD.md:

* I0 ~ Gamma(25, 1/25) per shot; laser on for even frames.
* ~5 % hits, each with 30 Gaussian Bragg peaks (sigma 1 px, ~50 photons x I0),
  >= 6 px apart and >= 4 px away from masked pixels and panel edges.
* Background photon rate I0 * (0.005 + 0.05 exp(-(r - r0)^2 / 18)), a diffuse
  ring at r0 = 0.3 * width around an off-grid beam centre.
* Weak pump-probe signal: K fixed pixels get s * I0 extra photons on laser-on
  frames (s photons per frame on average), invisible in any single frame.
* n ~ Poisson(rate); raw = pedestal + n * 9.5 keV * gain + N(0, 4)
  + common mode N(0, 10) per (frame, row, 64-column segment), clipped to
  14 bits, stored as uint16.  pedestal ~ N(3100, 100), gain = 16.4 (1 + N(0, 0.03))
  ADU/keV per pixel.
* 0.3 % bad pixels (half hot with noise sigma 200, half dead = constant) and a
  beam-stop disc of radius 20 px that receives no photons.
* A separate dark run (no X-rays) for the pedestal.

Detectors are 2-D (H, W) or modular 3-D (P, H, W).  Internally everything is
kept as (P, H, W) with P = 1 for a 2-D detector; each panel is treated as its
own image with its own off-grid beam centre, beam stop and ring, which keeps the
geometry simple while still exercising per-panel calibration.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy

# --- detector and physics constants (from the workload description) ---------
PHOTON_KEV = 9.5              # photon energy
GAIN_ADU_PER_KEV = 16.4       # nominal gain
GAIN_SPREAD = 0.03            # relative per-pixel gain variation
PEDESTAL_MEAN, PEDESTAL_SIGMA = 3100.0, 100.0
READ_NOISE = 4.0              # ADU, white noise per pixel and frame
HOT_NOISE = 200.0             # ADU, noise of a hot pixel
COMMON_MODE_SIGMA = 10.0      # ADU, per (frame, row, segment)
SEGMENT = 64                  # common-mode segment width in columns
ADU_MAX = 2**14 - 1           # 14-bit ADC
BAD_FRACTION = 0.003
BEAM_STOP_RADIUS = 20.0       # px
RING_FRACTION = 0.3           # r0 = 0.3 * panel width
RING_WIDTH2 = 18.0            # (r - r0)^2 / 18 in the exponent
BG_FLAT, BG_RING = 0.005, 0.05
I0_SHAPE = 25.0               # Gamma(25, 1/25): mean 1, 20 % rms
PEAK_SIGMA = 1.0              # px
PEAK_MIN_DISTANCE = 6.0       # px between peak centres
PEAK_MARGIN = 4               # px from masked pixels and panel edges
PEAK_HALF_WINDOW = 4          # peaks are rendered on a 9x9 window (+-4 sigma)

# Row-block height of a generation tile.  It is part of the data definition
# (it fixes which Philox key produces which pixels), not a performance knob.
TILE_ROWS = 64

# Philox key streams: one per kind of randomness, so they never overlap.
_STATIC, _FRAME, _LIGHT, _DARK = range(4)


def philox(seed: int, stream: int, index: int = 0, tile: int = 0) -> numpy.random.Generator:
    """A generator keyed by (seed, stream, index, tile).

    Philox is a counter-based bijection: distinct keys give independent
    streams, so keying by position (rather than seeding once and drawing in
    order) is what makes tiles reproducible in any order.
    """
    if not (0 <= stream < 16 and 0 <= index < 2**36 and 0 <= tile < 2**24):
        raise ValueError("frame index or tile out of range for the key layout")
    key = numpy.array([seed % 2**64, (stream << 60) | (index << 24) | tile], dtype=numpy.uint64)
    return numpy.random.Generator(numpy.random.Philox(key=key))


def parse_shape(shape) -> tuple[int, ...]:
    """'1024x1024' -> (1024, 1024); '16x352x384' -> (16, 352, 384); tuples are checked."""
    if isinstance(shape, str):
        shape = shape.lower().split("x")
    shape = tuple(int(v) for v in shape)
    if len(shape) not in (2, 3) or min(shape) <= 0:
        raise ValueError(f"detector shape must be HxW or PxHxW, got {shape!r}")
    if shape[-1] % SEGMENT:
        raise ValueError(f"width must be a multiple of {SEGMENT} (common-mode segments)")
    return shape


@dataclass(frozen=True)
class FrameParams:
    """Per-shot quantities; peaks is (n, 4): panel, y, x, expected photons."""
    index: int
    i0: float
    laser_on: bool
    hit: bool
    peaks: numpy.ndarray


@dataclass
class Batch:
    """Frames [start, start + n) of a run, with their ground truth."""
    start: int
    raw: numpy.ndarray                 # (n, *shape) uint16 ADU
    counts: numpy.ndarray | None       # (n, *shape) uint16 planted photons (None for dark)
    i0: numpy.ndarray                  # (n,) float64
    laser_on: numpy.ndarray            # (n,) bool
    hit: numpy.ndarray                 # (n,) bool, planted hits
    peaks: numpy.ndarray               # (m, 5): frame, panel, y, x, expected photons


class Simulator:
    """An LCLS-like detector and beam, reproducible from (shape, seed).

    Parameters mirror the workload description; hit_rate, forced_hits,
    n_weak and weak_signal exist so that small test runs are guaranteed to
    contain hits and a weak signal strong enough to be found reliably.
    """

    def __init__(self, shape, seed: int = 0, *, hit_rate: float = 0.05,
                 forced_hits=(), n_peaks: int = 30, peak_photons: float = 50.0,
                 n_weak: int = 8, weak_signal: float = 0.2, threads: int | None = None):
        self.shape = parse_shape(shape)
        self.seed = int(seed)
        self.hit_rate = float(hit_rate)
        self.forced_hits = frozenset(int(i) for i in forced_hits)
        self.n_peaks = int(n_peaks)
        self.peak_photons = float(peak_photons)
        self.n_weak = int(n_weak)
        self.weak_signal = float(weak_signal)
        # Tiles are independent, so they can be generated on all cores; NumPy's
        # random distributions release the GIL while filling arrays.
        self.threads = threads or min(8, os.cpu_count() or 1)

        panels = (1,) + self.shape if len(self.shape) == 2 else self.shape
        self.n_panels, self.height, self.width = panels
        self.blocks_per_panel = -(-self.height // TILE_ROWS)
        self._params = {}    # frame index -> FrameParams (cheap, but reused by every tile)
        self._make_detector()

    # ------------------------------------------------------------------ static
    def _make_detector(self):
        """Pedestal, gain, bad pixels, geometry and weak spots (keyed by seed only)."""
        P, H, W = self.n_panels, self.height, self.width
        rng = philox(self.seed, _STATIC)
        self.pedestal = rng.normal(PEDESTAL_MEAN, PEDESTAL_SIGMA, (P, H, W)).astype(numpy.float32)
        self.gain = (GAIN_ADU_PER_KEV * (1 + rng.normal(0, GAIN_SPREAD, (P, H, W)))).astype(numpy.float32)
        # Beam centre per panel: near the middle but deliberately off the pixel
        # grid (pixel (i, j) has its centre at (y, x) = (i, j)).
        self.beam_centre = numpy.stack([H / 2 + rng.uniform(-3, 3, P),
                                        W / 2 + rng.uniform(-3, 3, P)], axis=1)
        self.r0 = RING_FRACTION * W

        npix = P * H * W
        n_bad = int(round(BAD_FRACTION * npix))
        bad = rng.choice(npix, n_bad, replace=False)
        self.hot = numpy.zeros(npix, bool)
        self.dead = numpy.zeros(npix, bool)
        self.hot[bad[: n_bad // 2]] = True
        self.dead[bad[n_bad // 2:]] = True
        self.hot = self.hot.reshape(P, H, W)
        self.dead = self.dead.reshape(P, H, W)

        y = numpy.arange(H).reshape(1, H, 1)
        x = numpy.arange(W).reshape(1, 1, W)
        cy = self.beam_centre[:, 0].reshape(P, 1, 1)
        cx = self.beam_centre[:, 1].reshape(P, 1, 1)
        self.radius = numpy.hypot(y - cy, x - cx)
        self.beam_stop = self.radius < BEAM_STOP_RADIUS
        masked = self.hot | self.dead | self.beam_stop

        # Expected background photons per unit I0; the beam stop blocks all X-rays.
        bg = BG_FLAT + BG_RING * numpy.exp(-(self.radius - self.r0) ** 2 / RING_WIDTH2)
        self.background = numpy.where(self.beam_stop, 0.0, bg)

        # Weak-signal pixels: anywhere on the good area, fixed for the detector.
        good = numpy.flatnonzero(~masked)
        weak = numpy.sort(rng.choice(good, self.n_weak, replace=False))
        self.weak_pixels = numpy.stack(numpy.unravel_index(weak, (P, H, W)), axis=1)

        # Per-pixel constants used for every frame.
        self.adu_per_photon = (PHOTON_KEV * self.gain).astype(numpy.float32)
        self.noise_sigma = numpy.where(self.hot, HOT_NOISE, READ_NOISE).astype(numpy.float32)
        # A dead pixel is stuck at a constant reading (here its own pedestal).
        self.dead_value = numpy.rint(self.pedestal).astype(numpy.float32)

        # Where a Bragg peak centre may go: PEAK_MARGIN px (Chebyshev) from any
        # masked pixel and from the panel edges, so peaks are neither clipped
        # nor split by the mask.
        self._peak_ok = ~_dilate(masked, PEAK_MARGIN)
        m = PEAK_MARGIN
        self._peak_ok[:, :m, :] = self._peak_ok[:, H - m:, :] = False
        self._peak_ok[:, :, :m] = self._peak_ok[:, :, W - m:] = False

    def _full(self, a):
        """(P, H, W) -> the detector's own shape (drops P for a 2-D detector)."""
        return a.reshape(self.shape)

    @property
    def bad_pixels(self):
        return self._full(self.hot | self.dead)

    @property
    def mask(self):
        """Planted good pixels: not bad, not behind the beam stop."""
        return self._full(~(self.hot | self.dead | self.beam_stop))

    def geometry(self):
        """What the facility knows about the detector: calibration + geometry.

        The analysis receives only this (not the planted pedestal or bad-pixel
        map, which it must find from the dark run).
        """
        centre = self.beam_centre[0] if len(self.shape) == 2 else self.beam_centre
        return {"gain": self._full(self.gain), "beam_centre": centre,
                "beam_stop_radius": BEAM_STOP_RADIUS}

    # --------------------------------------------------------------- per frame
    def frame_params(self, index: int) -> FrameParams:
        """I0, laser state, hit flag and Bragg peaks of light frame `index`."""
        if index not in self._params:
            self._params[index] = self._make_frame_params(index)
        return self._params[index]

    def _make_frame_params(self, index: int) -> FrameParams:
        rng = philox(self.seed, _FRAME, index)
        i0 = float(rng.gamma(I0_SHAPE, 1 / I0_SHAPE))
        # Draw the hit decision even for forced hits so that forcing one frame
        # does not change the randomness of the others.
        hit = bool(rng.random() < self.hit_rate) or index in self.forced_hits
        peaks = self._place_peaks(rng, i0) if hit else numpy.empty((0, 4))
        return FrameParams(index, i0, index % 2 == 0, hit, peaks)

    def _place_peaks(self, rng, i0):
        """Rejection-sample n_peaks positions satisfying the spacing rules."""
        P, H, W = self.n_panels, self.height, self.width
        out = []
        for _ in range(1000):
            cand = numpy.stack([rng.integers(0, P, 256).astype(float),
                                rng.uniform(0, H - 1, 256), rng.uniform(0, W - 1, 256)], axis=1)
            for p, y, x in cand:
                if not self._peak_ok[int(p), int(round(y)), int(round(x))]:
                    continue
                if any(q == p and (y - qy) ** 2 + (x - qx) ** 2 < PEAK_MIN_DISTANCE ** 2
                       for q, qy, qx, _ in out):
                    continue
                out.append((p, y, x, self.peak_photons * i0))
                if len(out) == self.n_peaks:
                    return numpy.array(out)
        raise RuntimeError("detector too small to place the Bragg peaks")

    def _tile(self, frame: int, panel: int, block: int, dark: bool):
        """Raw ADU and planted photon counts of one row block of one panel."""
        rows = slice(block * TILE_ROWS, min((block + 1) * TILE_ROWS, self.height))
        y0, nrows, W = rows.start, rows.stop - rows.start, self.width
        rng = philox(self.seed, _DARK if dark else _LIGHT, frame,
                     panel * self.blocks_per_panel + block)
        if dark:
            n = numpy.zeros((nrows, W), numpy.uint16)
        else:
            fp = self.frame_params(frame)
            rate = fp.i0 * self.background[panel, rows]
            if fp.laser_on:
                for p, y, x in self.weak_pixels:
                    if p == panel and y0 <= y < rows.stop:
                        rate[y - y0, x] += self.weak_signal * fp.i0
            for p, y, x, amp in fp.peaks:
                if p == panel:
                    _add_gaussian(rate, y - y0, x, amp)
            n = rng.poisson(rate).astype(numpy.uint16)
        # Build the ADU values in place in one float32 buffer (this is the hot
        # loop of the simulation).
        adu = rng.standard_normal((nrows, W), dtype=numpy.float32)
        adu *= self.noise_sigma[panel, rows]
        adu += self.pedestal[panel, rows]
        if not dark:
            adu += n * self.adu_per_photon[panel, rows]
        cm = rng.standard_normal((nrows, W // SEGMENT, 1), dtype=numpy.float32)
        cm *= COMMON_MODE_SIGMA
        segments = adu.reshape(nrows, W // SEGMENT, SEGMENT)   # a view of adu
        segments += cm
        numpy.copyto(adu, self.dead_value[panel, rows], where=self.dead[panel, rows])
        numpy.rint(adu, out=adu)
        numpy.clip(adu, 0, ADU_MAX, out=adu)
        return adu.astype(numpy.uint16), n

    def frames(self, start: int, stop: int, dark: bool = False) -> Batch:
        """Frames [start, stop) of the light run (or of the dark run)."""
        nf = stop - start
        P, H, W = self.n_panels, self.height, self.width
        raw = numpy.empty((nf, P, H, W), numpy.uint16)
        counts = None if dark else numpy.empty((nf, P, H, W), numpy.uint16)

        def fill(job):
            f, p, b = job
            r, n = self._tile(start + f, p, b, dark)
            rows = slice(b * TILE_ROWS, b * TILE_ROWS + r.shape[0])
            raw[f, p, rows] = r
            if counts is not None:
                counts[f, p, rows] = n

        if not dark:  # fill the per-frame cache once, outside the threads
            params = [self.frame_params(i) for i in range(start, stop)]
        jobs = [(f, p, b) for f in range(nf) for p in range(P) for b in range(self.blocks_per_panel)]
        with ThreadPoolExecutor(self.threads) as pool:
            list(pool.map(fill, jobs))

        shape = (nf,) + self.shape
        if dark:
            return Batch(start, raw.reshape(shape), None, numpy.zeros(nf), numpy.zeros(nf, bool),
                         numpy.zeros(nf, bool), numpy.empty((0, 5)))
        peaks = [numpy.column_stack([numpy.full(len(fp.peaks), fp.index), fp.peaks])
                 for fp in params if fp.hit]
        return Batch(start, raw.reshape(shape), counts.reshape(shape),
                     numpy.array([fp.i0 for fp in params]),
                     numpy.array([fp.laser_on for fp in params]),
                     numpy.array([fp.hit for fp in params]),
                     numpy.concatenate(peaks) if peaks else numpy.empty((0, 5)))

    def truth(self, n_frames: int) -> dict:
        """Ground truth of the first n_frames light frames (host NumPy)."""
        params = [self.frame_params(i) for i in range(n_frames)]
        peaks = [numpy.column_stack([numpy.full(len(fp.peaks), fp.index), fp.peaks])
                 for fp in params if fp.hit]
        return {
            "hits": numpy.array([fp.index for fp in params if fp.hit], int),
            "peaks": numpy.concatenate(peaks) if peaks else numpy.empty((0, 5)),
            "i0": numpy.array([fp.i0 for fp in params]),
            "laser_on": numpy.array([fp.laser_on for fp in params]),
            "weak_pixels": self.weak_pixels if len(self.shape) == 3 else self.weak_pixels[:, 1:],
            "bad_pixels": self.bad_pixels,
            "mask": self.mask,
            "r0": self.r0,
        }


def _add_gaussian(rate, y, x, amp):
    """Add a sigma = PEAK_SIGMA Gaussian of `amp` expected photons centred at (y, x).

    Rendered on a (2 * PEAK_HALF_WINDOW + 1)^2 window around the nearest pixel
    (clipped to the rows of this tile), by evaluating the density at pixel
    centres; the window holds > 99.99 % of the peak.
    """
    iy, ix = int(round(y)), int(round(x))
    h = PEAK_HALF_WINDOW
    y_lo, y_hi = max(iy - h, 0), min(iy + h + 1, rate.shape[0])
    if y_lo >= y_hi:
        return
    yy = numpy.arange(y_lo, y_hi).reshape(-1, 1)
    xx = numpy.arange(ix - h, ix + h + 1).reshape(1, -1)
    g = numpy.exp(-((yy - y) ** 2 + (xx - x) ** 2) / (2 * PEAK_SIGMA ** 2))
    rate[y_lo:y_hi, ix - h: ix + h + 1] += amp / (2 * numpy.pi * PEAK_SIGMA ** 2) * g


def _dilate(m, radius):
    """Binary dilation of the last two axes by a (2r+1)^2 square (separable)."""
    out = m.copy()
    for axis in (-2, -1):
        src, out = out, out.copy()
        n = src.shape[axis]
        for s in range(1, radius + 1):
            lo = [slice(None)] * src.ndim
            hi = [slice(None)] * src.ndim
            lo[axis], hi[axis] = slice(0, n - s), slice(s, n)
            out[tuple(lo)] |= src[tuple(hi)]
            out[tuple(hi)] |= src[tuple(lo)]
    return out


# ---------------------------------------------------------------- run files
# A run as a facility stores it: the detector frames of the light run in one
# HDF5 file with the per-shot beam monitor (I0) and event codes (laser
# on/off) beside them and the detector calibration the facility knows (gain,
# geometry); the dark run in a file of its own; the planted truth in a third
# file that the analysis never opens.
FRAMES = "entry/data/frames"          # (N, H, W) or (N, P, H, W) uint16 ADU
I0 = "entry/instrument/i0"            # (N,) float64
LASER_ON = "entry/instrument/laser_on"  # (N,) bool
GAIN = "entry/calibration/gain"       # detector-shaped float32, ADU/keV
BEAM_CENTRE = "entry/calibration/beam_centre"   # (2,) or (P, 2) px


def run_paths(path):
    """RUN.h5 -> (RUN.h5, RUN_dark.h5, RUN_truth.h5)."""
    path = os.fspath(path)
    stem = path[:-3] if path.endswith(".h5") else path
    return path, stem + "_dark.h5", stem + "_truth.h5"


def write_run(path, sim: "Simulator", n_frames: int, n_dark: int, batch: int = 16,
              progress=None):
    """Writes frames [0, n_frames) and a dark run of n_dark frames of sim to
    disk (see run_paths), each file under a temporary name first, so a run
    on disk is complete or absent."""
    import h5py

    run, dark, truth_path = run_paths(path)
    os.makedirs(os.path.dirname(os.path.abspath(run)), exist_ok=True)
    shape = sim.shape

    def tmp(p):
        return p + f".tmp-{os.getpid()}"

    written = []
    try:
        with h5py.File(tmp(dark), "w") as f:
            d = f.create_dataset(FRAMES, (n_dark,) + shape, numpy.uint16)
            for s in range(0, n_dark, batch):
                e = min(s + batch, n_dark)
                d[s:e] = sim.frames(s, e, dark=True).raw
            f.attrs["run_kind"] = "dark"
        written.append(dark)
        totals, params = [], []
        good = sim.mask
        with h5py.File(tmp(run), "w") as f:
            d = f.create_dataset(FRAMES, (n_frames,) + shape, numpy.uint16)
            i0 = numpy.empty(n_frames)
            laser = numpy.empty(n_frames, bool)
            for s in range(0, n_frames, batch):
                e = min(s + batch, n_frames)
                b = sim.frames(s, e)
                d[s:e] = b.raw
                i0[s:e], laser[s:e] = b.i0, b.laser_on
                totals.append(numpy.where(good, b.counts, 0).reshape(e - s, -1)
                              .sum(axis=1, dtype=numpy.int64))
                if progress is not None:
                    progress(e)
            f[I0] = i0
            f[LASER_ON] = laser
            geo = sim.geometry()
            f[GAIN] = geo["gain"]
            f[BEAM_CENTRE] = geo["beam_centre"]
            f.attrs["beam_stop_radius"] = geo["beam_stop_radius"]
            f.attrs["dark_run"] = os.path.basename(dark)
            f.attrs["shape"] = "x".join(map(str, shape))
        written.append(run)
        truth = sim.truth(n_frames)
        with h5py.File(tmp(truth_path), "w") as f:
            for k in ("hits", "peaks", "weak_pixels", "bad_pixels", "mask"):
                f[k] = truth[k]
            f["planted_totals"] = numpy.concatenate(totals)
            f.attrs.update(r0=truth["r0"], seed=sim.seed, n_weak=sim.n_weak,
                           shape="x".join(map(str, shape)))
        written.append(truth_path)
        for p in written:
            os.replace(tmp(p), p)
    finally:
        for p in (dark, run, truth_path):
            if os.path.exists(tmp(p)):
                os.remove(tmp(p))
    return run


class RunTruth:
    """The planted truth of a run on disk, with the parts of Simulator's
    interface that run.evaluate uses (seed, shape, n_weak, truth(n))."""

    def __init__(self, path):
        import h5py

        with h5py.File(run_paths(path)[2], "r") as f:
            self._truth = {k: f[k][()] for k in ("hits", "peaks", "weak_pixels",
                                                 "bad_pixels", "mask")}
            self.planted_totals = f["planted_totals"][()]
            self.seed = int(f.attrs["seed"])
            self.n_weak = int(f.attrs["n_weak"])
            self.shape = parse_shape(str(f.attrs["shape"]))
            self._truth["r0"] = float(f.attrs["r0"])

    def truth(self, n_frames: int) -> dict:
        if n_frames > len(self.planted_totals):
            raise ValueError(f"the truth covers {len(self.planted_totals)} frames, not {n_frames}")
        t = dict(self._truth)
        t["hits"] = t["hits"][t["hits"] < n_frames]
        t["peaks"] = t["peaks"][t["peaks"][:, 0] < n_frames] if len(t["peaks"]) else t["peaks"]
        return t


def main(argv=None):
    """python generate.py RUN.h5 [--shape ...] [--frames N] [--dark N] [--seed S]"""
    import argparse

    p = argparse.ArgumentParser(description="write a synthetic detector run to disk")
    p.add_argument("output", help="RUN.h5 (RUN_dark.h5 and RUN_truth.h5 go beside it)")
    p.add_argument("--shape", default="1024x1024")
    p.add_argument("--frames", type=int, default=400)
    p.add_argument("--dark", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--forced-hits", default="", help="comma-separated frame indices")
    args = p.parse_args(argv)
    forced = [int(v) for v in args.forced_hits.split(",") if v]
    sim = Simulator(parse_shape(args.shape), seed=args.seed, forced_hits=forced)
    out = write_run(args.output, sim, args.frames, args.dark)
    print(f"wrote {out} ({args.frames} frames of {args.shape}), "
          f"{run_paths(out)[1]} ({args.dark} dark frames) and {run_paths(out)[2]}")


if __name__ == "__main__":
    main()
