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

# fixed on main and removed from here (their corpus files are regression
# tests now): broadcast_to writable, a[np.array(k)] returning a view, ravel
# of a stepped view returning a view.
OPEN = [
    # (name, regex over the mismatch message)
    ('cumprod over many tiles gives NaN',
     r"cumprod\([^\n]*\n|ndtile np\.float(32|64)\(nan\)[^\n]*\n(.*\n)*.*cumprod"),
    ('mean/var/std dtype=',
     r"^\w+ at `[^`]*(mean|var|std)\([^`]*dtype="),
    ('reduction initial= dtype',
     r"initial=.*: (a\d+: )?NumPy (gives |)\w+, ndtile (float64|int64)|"
     r"NumPy (gives )?(bool|u?int\d+), ndtile (float64|int64)|initial=2\.5|"
     r"NumPy raises OverflowError: Python integer -?\d+ out of bounds for \w+; ndtile does not"),
    ('empty min/max/argmin/argmax accepted',
     r"NumPy raises ValueError: (zero-size array to reduction operation|"
     r"attempt to get arg(min|max) of an empty sequence)"),
    ('unsigned ** signed raises',
     r"ndtile raises ValueError: Integers to negative integer powers"),
    ('0-d results are views (flip, [...] of 0-d)',
     r"np\.flip\(|a\d+ = a\d+\[None\]"),
    ('where with 2**63',
     r"ndtile raises OverflowError: Python int too large"),
    ('where= with more dimensions',
     r"input operand has more dimensions than allowed by the axis remapping|"
     r"where=.*non-broadcastable operand"),
    ('exception precedence',
     r"NumPy raises (UFuncTypeError|ValueError|TypeError|OverflowError): .*; ndtile "
     r"(ValueError|IndexError|UFuncTypeError|OverflowError)"),
    ('advanced assignment value shape',
     r"ndtile raises (ValueError: shape mismatch|IndexError: index)"),
    ('a[i, j] = array accepted',
     r"NumPy raises (ValueError: setting an array element with a sequence|"
     r"TypeError: only 0-dimensional arrays)"),
    ('searchsorted unsigned negative',
     r"searchsorted"),
    ('float16 loops',
     r"float16"),
    ('complex special values',
     r"complex(64|128)\((-?nan|-?inf)"),
    ('matmul of a .real/.imag view',
     r"(?s)^value at `[^`]*(@|np\.matmul\(|np\.dot\()[^`]*`.*\.(real|imag)\b"),
    ('complex var/std of constant values not 0',
     r"(?s)complex.*\.(std|var)\(|\.(std|var)\(.*complex"),
    ('unique complex NaN',
     r"np\.unique"),
]

_RX = [(n, re.compile(p, re.S)) for n, p in OPEN]


def match(message, lines=()):
    """The name of the open bug a mismatch (its message and program) fits."""
    text = message + '\n' + '\n'.join(lines)
    for name, rx in _RX:
        if rx.search(text):
            return name
    return None
