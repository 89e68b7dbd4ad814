"""Mismatches that the fuzzer found and that are reported but not fixed yet
(each in /work/wt/FINDINGS.md or docs/fuzzing.md with a minimal repro).

The fixed-seed run in `make test` (tests/python/test_fuzz_corpus.py) counts
a mismatch whose message matches one of these patterns as open instead of
failed, so that the suite stays green while the fixes land and any new kind
of mismatch still fails it. A campaign (`make fuzz`) reports them as
failures with their signatures. Remove an entry once its fix is merged: the
fixed-seed run then proves the fix on its programs.
"""
import re

# fixed on main and removed from here (their corpus files fixed_* are
# regression tests now): broadcast_to writable, a[np.array(k)] returning a
# view, ravel of a stepped view returning a view, cumprod NaN over many
# tiles, mean/var/std dtype=, reduction initial= dtype, empty min/max/argmin/
# argmax accepted, unsigned ** signed raising, 0-d flip a view, where with
# 2**63, advanced assignment with an empty broadcast, a[i] = array,
# searchsorted with mixed signed/unsigned, matmul of .real/.imag views,
# complex var/std of constant values, var/std of complex in an integer
# dtype= (the square's rounding), where= with more dimensions, the
# precedence of out= cast errors, value shapes in advanced assignment,
# nan functions of complex input with a real dtype= (the NaN mask first),
# order statistics keepdims of 0-d, percentile of bool with a bad axis,
# nanmedian of an empty transposed array, the layout of percentile results,
# take/compress from an empty axis, accumulate of 0-d, divmod with an
# out-of-range Python int, select of Python scalars, the check order of np.put,
# put_along_axis and place into read-only arrays, choose of an empty broadcast.
OPEN = [
    # (name, regex over the mismatch message)
    ('float16 loops',
     r"float16"),
    ('complex special values',
     r"complex(64|128)\((-?nan|-?inf)"),
    ('unique complex NaN',
     r"(?s)at `a\d+ = np\.unique\([^`]*`.*complex(64|128)\((-?nan|-?inf)"),
]

_RX = [(n, re.compile(p, re.S)) for n, p in OPEN]


def match(message, lines=()):
    """The name of the open bug a mismatch (its message and program) fits."""
    text = message + '\n' + '\n'.join(lines)
    for name, rx in _RX:
        if rx.search(text):
            return name
    return None
