#!/usr/bin/env python3
"""Runs the array API standard's conformance suite (data-apis/array-api-tests)
against ndtile, and with --numpy against NumPy too, so a failure NumPy has
as well (NumPy's own behaviour, which ndtile follows) is told apart from
one of ndtile's.

    git clone --recurse-submodules https://github.com/data-apis/array-api-tests SUITE
    pip install -r SUITE/requirements.txt        # pytest, hypothesis, ndindex
    python3 tools/array_api_suite.py SUITE [--numpy] [--diff] [--max-examples N]
                                     [--out DIR] [-- PYTEST ARGS]

ARRAY_API_TESTS_VERSION is ndtile.__array_api_version__ unless set. Prints
passed / failed / skipped for each module run and the failing tests: those
of ndtile only, and (with --numpy) those NumPy fails too; DIR (default
/tmp/ndtile-array-api) keeps each run's output. --diff runs the suite
through tools/array_api_diff.py, a namespace that also calls NumPy on the
same arguments for every ndtile call it makes and logs what differs to
DIR/diff.jsonl (summarised at the end): the suite's generated inputs, with
NumPy as the oracle rather than the standard's looser properties. Set
NDTILE_TILE_BYTES (e.g. 64) to run the suite's small arrays over many tiles.
PYTEST ARGS go to both runs: on a loaded machine the suite's own
--disable-deadline keeps hypothesis's 800 ms deadline from failing slow
examples (the diff run calls NumPy besides).
"""
import argparse
import os
import re
import subprocess
import sys

import ndtile

TOOLS = os.path.dirname(os.path.abspath(__file__))
_FAILED = re.compile(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", re.M)     # ids have spaces
_COUNTS = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)")


def run(suite, module, args, out, env_extra, name):
    env = dict(os.environ, **env_extra)
    env["ARRAY_API_TESTS_MODULE"] = module
    cmd = [sys.executable, "-m", "pytest", os.path.join(suite, "array_api_tests"), "-q",
           "-rfE", "--tb=no", "-p", "no:cacheprovider"] + args
    p = subprocess.run(cmd, cwd=suite, env=env, capture_output=True, text=True)
    text = p.stdout + p.stderr
    with open(os.path.join(out, f"{name}.log"), "w") as f:
        f.write(text)
    tail = text.strip().splitlines()[-1] if text.strip() else ""
    counts = {k: int(n) for n, k in _COUNTS.findall(tail)}
    return counts, set(_FAILED.findall(text)), tail


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite", help="a checkout of data-apis/array-api-tests (with its "
                                  "array-api submodule)")
    ap.add_argument("--numpy", action="store_true", help="run it against NumPy too")
    ap.add_argument("--diff", action="store_true",
                    help="run ndtile through the differential namespace (array_api_diff.py)")
    ap.add_argument("--max-examples", type=int, default=20)
    ap.add_argument("--seed", default="0", help="--hypothesis-seed (the same for both runs)")
    ap.add_argument("--out", default="/tmp/ndtile-array-api")
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    env = {"ARRAY_API_TESTS_VERSION": os.environ.get("ARRAY_API_TESTS_VERSION",
                                                     ndtile.__array_api_version__)}
    args = ["--max-examples", str(a.max_examples), f"--hypothesis-seed={a.seed}"] + extra
    module = "ndtile"
    if a.diff:
        log = os.path.join(a.out, "diff.jsonl")
        if os.path.exists(log):
            os.remove(log)
        env["NTDIFF_LOG"] = log
        path = os.path.join(TOOLS, "array_api_diff.py")
        module = ("exec('import importlib.util as u; s = u.spec_from_file_location("
                  f"\"array_api_diff\", \"{path}\"); m = u.module_from_spec(s); "
                  "s.loader.exec_module(m); xp = m.install()')")
    nt_counts, nt_failed, nt_tail = run(a.suite, module, args, a.out, env, "ndtile")
    print(f"ndtile ({env['ARRAY_API_TESTS_VERSION']}): {nt_tail}")
    np_failed = set()
    if a.numpy:
        np_counts, np_failed, np_tail = run(a.suite, "numpy", args, a.out, env, "numpy")
        print(f"numpy: {np_tail}")
    only = sorted(nt_failed - np_failed)
    print(f"\nfailing in ndtile only ({len(only)}):" if a.numpy else
          f"\nfailing ({len(only)}):")
    for t in only:
        print("  " + t)
    if a.numpy:
        both = sorted(nt_failed & np_failed)
        print(f"failing in NumPy too ({len(both)}): NumPy's behaviour, which ndtile follows")
        for t in both:
            print("  " + t)
        print(f"failing in NumPy only: {len(np_failed - nt_failed)}")
    if a.diff:
        sys.path.insert(0, TOOLS)
        import array_api_diff
        print("\ndifferences from NumPy (" + env["NTDIFF_LOG"] + "):")
        if os.path.exists(env["NTDIFF_LOG"]):
            array_api_diff.summary(env["NTDIFF_LOG"])
    return 1 if only else 0


if __name__ == "__main__":
    sys.exit(main())
