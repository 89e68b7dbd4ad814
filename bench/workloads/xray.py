"""The X-ray detector pipeline (examples/xray) at a reduced size.

The project's main job (see /work/shared/XRAY-WORKLOAD.md): dark-run
calibration (pedestal, noise, bad-pixel mask), then per batch of frames
common-mode subtraction, photon conversion, 3x3 peak finding, radial
profiles, and the laser-on/off accumulation that reveals the weak signal.
The analysis code is examples/xray/analysis.py, called unchanged with the
module under test; the frames are simulated by examples/xray/generate.py
with host NumPy *before* the timed region (frame generation is the
facility's detector, not the analysis).  The timed region is calibration
+ analysis, including the hand-over of each batch of host frames to the
library (`xp.asarray(raw)` inside analysis.py), as in the real pipeline.

size = (side, frames): a side x side detector and that many light frames
(plus DARK dark frames), in batches of BATCH.
"""
import sys
from pathlib import Path

import numpy

DESCRIPTION = "X-ray pipeline (examples/xray), reduced size"
SIZES = {"full": (512, 32), "quick": (256, 16)}
DARK, BATCH, SEED = 16, 8, 0
FORCED_HITS = (5,)
TOL = {"rtol": 1e-3, "atol": 1e-2}   # float32 sums over ~260k pixels; counts are exact
KIND = "pipeline"

_XRAY = Path(__file__).resolve().parents[2] / "examples" / "xray"


def _modules():
    """analysis and generate from examples/xray, imported lazily.

    Raises ImportError with a reason when they are missing or lack the
    functions this workload calls (the runner then skips the workload)."""
    if str(_XRAY) not in sys.path:
        sys.path.insert(0, str(_XRAY))
    try:
        import analysis
        import generate
    except Exception as exc:  # noqa: BLE001 - any failure means "not usable yet"
        raise ImportError(f"examples/xray is not importable: {exc!r}") from exc
    missing = [name for mod, name in ((analysis, "calibrate"), (analysis, "Pipeline"),
                                       (generate, "Simulator")) if not hasattr(mod, name)]
    if missing:
        raise ImportError(f"examples/xray lacks {', '.join(missing)}")
    return analysis, generate


def available():
    try:
        _modules()
        return True, ""
    except ImportError as exc:
        return False, str(exc)


def setup(np, size):
    """Simulated dark and light frames (host NumPy, untimed)."""
    side, frames = size
    _, generate = _modules()
    sim = generate.Simulator((side, side), seed=SEED, forced_hits=FORCED_HITS)
    dark = [sim.frames(s, min(s + BATCH, DARK), dark=True).raw for s in range(0, DARK, BATCH)]
    light = []
    for s in range(0, frames, BATCH):
        b = sim.frames(s, min(s + BATCH, frames))
        light.append((b.raw, b.i0, b.laser_on, s))
    return sim.geometry(), dark, light


def kernel(np, geometry, dark, light):
    analysis, _ = _modules()
    cal = analysis.calibrate(np, iter(dark), geometry["gain"], geometry["beam_centre"],
                             geometry["beam_stop_radius"])
    pipe = analysis.Pipeline(np, cal, n_weak=8)
    for raw, i0, laser_on, start in light:
        pipe.process(raw, i0, laser_on, start)
    res = pipe.finish()
    return {
        "hits": numpy.asarray(res.hits),
        "n_peaks": numpy.asarray(res.n_peaks),
        # D at the spots found, sorted: at this size many pixels of D tie
        # (counts of a few photons over few frames), and a top-K of tied
        # values may pick any of them (argpartition's choice among equal
        # values is unspecified), so the values are compared, not the places
        "weak_values": numpy.sort(numpy.asarray(res.difference)[
            tuple(numpy.asarray(res.weak_spots).T)]),
        "profile_peak": int(res.profile_peak),
        "powder_sum": float(res.powder.sum()),
        "mask_pixels": int(cal.mask.sum()),
        "difference_sum": float(res.difference.sum()),
    }


def summarize(out):
    return out


def run(np, size=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, size)))


if __name__ == "__main__":
    from _common import main
    main(globals())
