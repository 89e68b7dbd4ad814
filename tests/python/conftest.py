"""Test setup: small tiles so that small arrays span many tiles, and more
than one worker so that deferred work really runs in parallel."""
import os

os.environ.setdefault("NDTILE_TILE_BYTES", "4096")
os.environ.setdefault("NDTILE_WORKERS", "2")
# Every task's operands checked (src/runtime/check.c): no element in two
# written operands, a written one beside a read one only as the same
# elements in order; a violation aborts the test run (under 0.1 % of the
# suite's time).
os.environ.setdefault("NDTILE_CHECK", "abort")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import ndtile  # noqa: E402
from ndtile import _core  # noqa: E402

_core.set_tile_bytes(int(os.environ["NDTILE_TILE_BYTES"]))

if ndtile.nranks() > 1:
    # On many ranks (tests/mpi/run.py runs this suite under mpirun) every
    # rank must draw the same examples and take the same branches.
    from hypothesis import HealthCheck, settings
    settings.register_profile("ndtile-ranks", derandomize=True, database=None, deadline=None,
                              suppress_health_check=list(HealthCheck))
    settings.load_profile("ndtile-ranks")


@pytest.fixture(autouse=True)
def _numpy_errors_ignored():
    with np.errstate(all="ignore"):
        yield


@pytest.fixture
def native_only(monkeypatch):
    """NDTILE_FALLBACK=error: a fallback to NumPy fails the test. A module
    uses it for all its tests with pytestmark = usefixtures("native_only")."""
    monkeypatch.setenv("NDTILE_FALLBACK", "error")


@pytest.fixture
def fallback_warnings():
    """Fresh once-per-function fallback warning state."""
    from ndtile import _fallback
    saved = set(_fallback._warned)
    _fallback.reset_warnings()
    yield
    _fallback._warned |= saved


DEFAULT_TILE_BYTES = 2 << 20      # the runtime's own default (src/runtime/sched.c)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "default_settings: run the test with the runtime's default 2 MiB tiles "
        "(and its look-ahead bound for them) instead of the suite's 4096-byte tiles")


def pytest_addoption(parser):
    parser.addoption(
        "--skip-default-settings", action="store_true",
        help="deselect the tests that run at the runtime's default settings (the "
        "default_settings fixture or marker): make test-python's second pass, at the "
        "default 2 MiB tiles throughout, where they would repeat the first pass's runs")


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--skip-default-settings"):
        return
    if int(os.environ["NDTILE_TILE_BYTES"]) != DEFAULT_TILE_BYTES:
        raise pytest.UsageError("--skip-default-settings: the suite's tiles are not the "
                                f"default {DEFAULT_TILE_BYTES} bytes (NDTILE_TILE_BYTES), so "
                                "the default_settings tests would not repeat another run")
    keep, drop = [], []
    for item in items:
        at_default = (item.get_closest_marker("default_settings") is not None
                      or "default_settings" in getattr(item, "fixturenames", ()))
        (drop if at_default else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture
def default_settings():
    """The runtime at its default settings for one test: 2 MiB tiles, the
    default inline threshold, and the pending-bytes bound that follows from
    them (set when the runtime starts, so it is restarted; arrays survive
    a restart). The suite's settings are restored after. A test asks for it
    by name or with @pytest.mark.default_settings; a module with
    pytestmark = pytest.mark.default_settings."""
    saved_tiles, saved_workers = _core.tile_bytes(), _core.workers()
    _core.init(saved_workers, DEFAULT_TILE_BYTES, -1)
    assert _core.tile_bytes() == DEFAULT_TILE_BYTES
    try:
        yield
    finally:
        _core.init(saved_workers, saved_tiles, -1)


@pytest.fixture(autouse=True)
def _default_settings_marker(request):
    if request.node.get_closest_marker("default_settings") is not None:
        request.getfixturevalue("default_settings")
    yield


# The instruction sets this machine's CPU kernels have, each a distinct copy
# of the loops (3 AVX-512F, 2 AVX2+FMA, below 2 the baseline: SSE2 or
# scalar): a test of floating-point flags that takes `simd_level` runs on
# each, so that an AVX-512 machine also runs the AVX2 and baseline loops
# (log(0)'s missing flag on AVX2 only, session 35).
MACHINE_SIMD = _core._simd_cap(-1)
SIMD_LEVELS = sorted({min(MACHINE_SIMD, lv) for lv in (3, 2, 1)}, reverse=True)


@pytest.fixture(params=SIMD_LEVELS, ids=lambda lv: f"simd{lv}")
def simd_level(request):
    """The CPU kernels capped at one of SIMD_LEVELS for one test (all work
    waited for before and after); the machine's level restored after."""
    assert _core._simd_cap(request.param) == request.param
    try:
        yield request.param
    finally:
        _core._simd_cap(MACHINE_SIMD)
