"""Test setup: small tiles so that small arrays span many tiles, and more
than one worker so that deferred work really runs in parallel."""
import os

os.environ.setdefault("NDTILE_TILE_BYTES", "4096")
os.environ.setdefault("NDTILE_WORKERS", "2")

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
