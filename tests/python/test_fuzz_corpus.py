"""The differential fuzzer's regression corpus, each file under the setting
it names, and a fixed set of seeds for every setting of the matrix
(tests/fuzz/, docs/fuzzing.md).

Each test runs in a child process with the setting's NDTILE_* variables
only (this suite's conftest sets small tiles for itself), under mpirun for
the rank settings. A corpus file names the setting its failure was found
in; it must match NumPy after every line unless it has XFAIL (an open bug).
The fixed seeds must match NumPy except for mismatches of a bug listed in
tests/fuzz/known_open.py; any other mismatch fails, with the seed to
replay (python tests/fuzz/run.py --replay SEED --settings NAME --minimise).
"""
import glob
import importlib.util
import os
import subprocess
import sys

import pytest

import ndtile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUZZ = os.path.join(ROOT, 'tests', 'fuzz')
sys.path.insert(0, FUZZ)

import fuzzlib  # noqa: E402

# the driver by its path, under a name of its own: a plain `import run` would
# take the name of examples/xray/run.py, which test_xray imports
_spec = importlib.util.spec_from_file_location('ndtile_fuzz_run', os.path.join(FUZZ, 'run.py'))
fuzzrun = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzzrun)

# programs per setting and the largest "large" array: about 3 minutes for
# the whole matrix on 2 cores (NDTILE_FUZZ_COUNT changes the count)
COUNT = int(os.environ.get('NDTILE_FUZZ_COUNT', '120'))
BIG = 400_000
FIRST_SEED = 424_242_000

pytestmark = pytest.mark.skipif(ndtile.nranks() > 1,
                                reason="starts its own ranks; not run under mpirun")


def child(setting, extra, timeout):
    cmd, env = fuzzrun.command(setting, extra)
    if cmd is None:
        pytest.skip("no mpirun")
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def corpus_settings():
    """The settings the corpus files name (SETTING; 'default' where a file
    names none), in the matrix's order. test_corpus runs the files of each:
    for a setting no file names its child ran nothing but its start (a
    process, or mpirun's ranks)."""
    named = set()
    for path in glob.glob(os.path.join(FUZZ, 'corpus', '*.py')):
        ns = {'__name__': 'corpus'}
        with open(path) as f:
            exec(compile(f.read(), path, 'exec'), ns)
        named.add(ns.get('SETTING', 'default'))
    return named


CORPUS_SETTINGS = corpus_settings()


def test_corpus_files_name_settings_of_the_matrix():
    # a file naming a setting the matrix lacks would never run
    assert CORPUS_SETTINGS <= set(fuzzlib.SETTINGS), CORPUS_SETTINGS - set(fuzzlib.SETTINGS)


@pytest.mark.parametrize('setting', [s for s in fuzzlib.SETTINGS if s in CORPUS_SETTINGS])
def test_corpus(setting):
    rc, out = child(setting, ['--corpus', os.path.join(FUZZ, 'corpus'), '--settings', setting],
                    300)
    assert rc == 0, out[-6000:]


@pytest.mark.parametrize('setting', list(fuzzlib.SETTINGS))
def test_fixed_seeds(setting, tmp_path):
    index = list(fuzzlib.SETTINGS).index(setting)
    extra = ['--worker', '--settings', setting, '--start', str(FIRST_SEED + 100_000 * index),
             '--count', str(COUNT), '--out', str(tmp_path), '--big-max', str(BIG),
             '--no-minimise', '--allow-open']
    rc, out = child(setting, extra, 600)
    assert rc == 0, out[-6000:]
    assert 'MISMATCH' not in out, out[-6000:]
    tag = setting + ('.r0' if fuzzlib.SETTINGS[setting][1] > 1 else '')
    with open(tmp_path / f'{tag}.progress') as f:
        seed, done, failed = (int(v) for v in f.read().split()[:3])
    assert done == COUNT and failed == 0, out[-6000:]
