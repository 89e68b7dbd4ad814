"""NDTILE_* settings: one parser (src/runtime/env.c) for the runtime and
the launcher; a value that is not of its form is a ValueError at import
naming the variable; ndtile.settings() returns the values in force."""
import os
import subprocess
import sys

import pytest

import ndtile
from ndtile import _core, _launch


def child(env, code="import ndtile; print(ndtile.settings())"):
    e = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True,
                          timeout=120)


pytestmark = pytest.mark.skipif(ndtile.nranks() > 1, reason="starts its own processes")


@pytest.mark.parametrize("env,key,want", [
    ({"NDTILE_TILE_BYTES": "1G"}, "NDTILE_TILE_BYTES", 1 << 30),   # was 1-byte tiles
    ({"NDTILE_TILE_BYTES": "256KiB"}, "NDTILE_TILE_BYTES", 256 << 10),
    ({"NDTILE_INLINE_ELEMS": "0"}, "NDTILE_INLINE_ELEMS", 0),      # was the default
    ({"NDTILE_WORKERS": "1"}, "NDTILE_WORKERS", 1),
    ({"NDTILE_MAX_MEMORY": "1.5G"}, "NDTILE_MAX_MEMORY", 3 << 29),
    ({"NDTILE_MAX_PENDING": "5"}, "NDTILE_MAX_PENDING", 5),
    ({"NDTILE_PROGRESS": "0"}, "NDTILE_PROGRESS", 0),
])
def test_values_in_force(env, key, want):
    r = child(env, "import ndtile; print(ndtile.settings()[%r])" % key)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) == want


@pytest.mark.parametrize("env,msg", [
    ({"NDTILE_WORKERS": "abc"}, "NDTILE_WORKERS=abc is not a count"),
    ({"NDTILE_WORKERS": "0"}, "NDTILE_WORKERS=0 is out of range"),
    ({"NDTILE_TILE_BYTES": "lots"}, "NDTILE_TILE_BYTES=lots is not a size"),
    ({"NDTILE_MAX_MEMORY": "-1G"}, "NDTILE_MAX_MEMORY=-1G is not a size"),
    ({"NDTILE_INLINE_ELEMS": "1e5"}, "NDTILE_INLINE_ELEMS=1e5 is not a count"),
    ({"NDTILE_PROGRESS": "-1"}, "NDTILE_PROGRESS=-1 is not a count"),
    ({"NDTILE_FALLBACK": "loud"}, "NDTILE_FALLBACK=loud is not one of the accepted words"),
])
def test_bad_values_fail_at_import(env, msg):
    r = child(env)
    assert r.returncode != 0
    assert "ValueError: " + msg in r.stderr, r.stderr


def test_word_setting_in_force():
    r = child({"NDTILE_FALLBACK": " Summary"},
              "import ndtile; print(ndtile.settings()['NDTILE_FALLBACK'])")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "summary"


def test_inline0_runs_deferred():
    # NDTILE_INLINE_ELEMS=0 (the fuzzer's inline0 setting) was read as the
    # default 32768; it is 0 in force now, and small ops still compute right
    r = child({"NDTILE_INLINE_ELEMS": "0", "NDTILE_PROFILE": ""},
              "import ndtile as np, numpy\n"
              "a = np.arange(10.0) * 2\n"
              "print(np.settings()['NDTILE_INLINE_ELEMS'], numpy.asarray(a).sum())")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "90.0"]


def test_launcher_uses_the_same_parser():
    assert _launch._setting("NDTILE_TILE_BYTES", "1G", 0) == 1 << 30
    assert _launch._setting("NDTILE_WORKERS", "4", 0) == 4
    with pytest.raises(ValueError, match="NDTILE_WORKERS=x is not a count"):
        _launch._setting("NDTILE_WORKERS", "x", 0)
    assert _core.parse_setting("NDTILE_SIMDEVICE_BYTES", "64M") == 64 << 20
    assert set(ndtile.settings()) == set(_core.setting_names())
