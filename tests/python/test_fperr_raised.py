"""Floating-point errors of the work a call records are reported when the
call returns and dropped when it raises: NumPy validates before computing
and checks an op's flags only after its loop completed, so a call that
raises reports nothing but its exception, and nothing of it is left for
the next call (a stray RuntimeWarning, or a FloatingPointError raised by an
innocent op). Deferred work, inline work, ranks (the suite's 2-rank pass)
and simulated devices (its sim pass) alike; test_default_settings_raised
runs the default tiles in a child process.

The mechanism is tested through a function that lives in the ndtile
package (compiled under its directory, as ndtile's own code is) entered
through _core.guard, as ndtile's methods are; the public functions that
record work before a late check are tested against NumPy."""
import os
import subprocess
import sys
import textwrap
import warnings

import numpy
import pytest

import ndtile
from ndtile import _core

LARGE = 100_000    # deferred: many 4 KiB tiles
SMALL = 10         # inline

ALL_WARN = dict(all='warn')


def _package_function(src, name):
    """A function compiled as ndtile's own code (its file in the package)."""
    path = os.path.join(os.path.dirname(ndtile.__file__), '_fperr_raised_test.py')
    g = {'np': ndtile}
    exec(compile(textwrap.dedent(src), path, 'exec'), g)
    return _core.guard(g[name])


# records a divide by zero and an invalid value (0/0), then raises: the late
# check of an ndtile function
_late = _package_function("""
    def late(a, fail, keep):
        q = a / 0
        keep.append(q)
        if fail == 'value':
            raise ValueError("found late")
        if fail == 'interrupt':
            raise KeyboardInterrupt
        if fail == 'memory':
            raise MemoryError("no room")
        if fail == 'read':
            float(q[1])              # waits for the work (and reports ready errors)
            raise ValueError("found after a read")
        return q
""", 'late')


def _messages(w):
    return [str(x.message) for x in w if issubclass(x.category, RuntimeWarning)]


def _innocent():
    """Work that raises no floating-point error, read back."""
    x = ndtile.arange(float(LARGE)) + 1
    assert float(x.sum()) == LARGE * (LARGE + 1) / 2
    assert float((ndtile.ones(SMALL) * 2).sum()) == 2 * SMALL


@pytest.mark.parametrize('n', [SMALL, LARGE])
@pytest.mark.parametrize('fail', ['value', 'interrupt', 'memory', 'read'])
def test_raised_call_reports_nothing(n, fail):
    a = ndtile.arange(float(n))
    keep = []
    exc = {'value': ValueError, 'interrupt': KeyboardInterrupt, 'memory': MemoryError,
           'read': ValueError}[fail]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with numpy.errstate(**ALL_WARN):
            with pytest.raises(exc):
                _late(a, fail, keep)
            assert _messages(w) == []
            _innocent()
            numpy.asarray(keep[0])          # its data waited for: still nothing
        assert _messages(w) == []
    # the values are computed all the same
    assert numpy.array_equal(numpy.asarray(keep[0]), numpy.arange(float(n)) / 0,
                             equal_nan=True)


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_returned_call_reports_once(n):
    """The same work in a call that returns: NumPy's two warnings, once."""
    a = ndtile.arange(float(n))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with numpy.errstate(**ALL_WARN):
            r = _late(a, None, [])
            numpy.asarray(r)
            _innocent()
    assert sorted(_messages(w)) == ['divide by zero encountered in divide',
                                    'invalid value encountered in divide']


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_raise_state_raises_at_the_op(n):
    """Under errstate 'raise' the op raises at once (as NumPy's), and the
    call's error leaves nothing for the next one."""
    a = ndtile.arange(float(n))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with numpy.errstate(all='raise'):
            with pytest.raises(FloatingPointError, match='divide by zero encountered in divide'):
                _late(a, 'value', [])
            _innocent()                       # no FloatingPointError here
        # a state that raises only what the work did not raise: warnings held
        with numpy.errstate(divide='warn', invalid='warn', over='raise'):
            with pytest.raises(ValueError, match='found late'):
                _late(a, 'value', [])
            _innocent()
    assert _messages(w) == []


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_errstate_left_before_the_read(n):
    """The call's errstate decides, also when the work is read after the
    errstate was left: a raised call's errors stay dropped, a returned
    call's warn in the call's state."""
    a = ndtile.arange(float(n))
    keep = []
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with numpy.errstate(all='warn'):
            with pytest.raises(ValueError):
                _late(a, 'value', keep)
            r = _late(a, None, [])
        with numpy.errstate(all='raise'):
            numpy.asarray(keep[0])
            numpy.asarray(r)
            _innocent()
    assert sorted(_messages(w)) == ['divide by zero encountered in divide',
                                    'invalid value encountered in divide']


def test_earlier_calls_still_report():
    """Work of an earlier call that returned is reported, not dropped with
    a later call that raises."""
    a = ndtile.arange(float(LARGE))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with numpy.errstate(**ALL_WARN):
            r = ndtile.log(a)                 # divide by zero (log of 0)
            with pytest.raises(ValueError):
                _late(a, 'value', [])
            numpy.asarray(r)
            _innocent()
    assert _messages(w) == ['divide by zero encountered in log']


@pytest.mark.parametrize('fail', [False, True])
def test_callback_is_a_call_of_its_own(fail):
    """The program's own code that an ndtile function calls reports as
    NumPy does (each op's warnings, at its line), whatever the function does
    (also when the callback raises, after its ops)."""
    def run(mod):
        def g(x):
            y = x / 0
            z = mod.divide(x, 0)      # a guarded call inside the function's call
            if fail:
                raise ValueError("callback")
            return y + z

        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            with numpy.errstate(**ALL_WARN):
                try:
                    r = mod.apply_along_axis(g, 0, mod.arange(6.0).reshape(2, 3))
                    numpy.asarray(r)
                except ValueError:
                    assert fail
                float(mod.ones(1).sum())   # (on ranks: the agreement that reports)
        # on ranks a warning shows at the line of the read that reports it
        # (docs/guide/ranks.md)
        return [(str(x.message), x.lineno if ndtile.nranks() == 1 else 0) for x in w]
    assert run(ndtile) == run(numpy)


# public functions that record work before a late check (each is NumPy's
# exception, with NumPy's warnings: none)
def _cumsum_out(m, n):
    m.cumsum(m.ones(n) * 1e308, out=m.empty(3))


def _reduce_out(m, n):
    m.add.reduce(m.ones(n) * 1e308, out=m.empty(3))


def _divide_out(m, n):
    m.divide(m.arange(float(n)), 0, out=m.empty(n // 2 + 1))


def _divmod_out(m, n):
    m.divmod(m.arange(float(n)), 0, out=(m.empty(n), m.empty(3)))


@pytest.mark.parametrize('n', [SMALL, LARGE])
@pytest.mark.parametrize('case', [_cumsum_out, _reduce_out, _divide_out, _divmod_out])
def test_public_calls_against_numpy(case, n):
    def run(mod):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            with numpy.errstate(**ALL_WARN):
                try:
                    case(mod, n)
                    exc = None
                except Exception as e:     # the type is compared with NumPy's
                    exc = type(e)
                during = _messages(w)
                del w[:]
                x = mod.arange(float(LARGE)) + 1
                assert float(x.sum()) == LARGE * (LARGE + 1) / 2
        return exc, during, _messages(w)
    exp = run(numpy)
    assert exp[0] is not None
    got = run(ndtile)
    assert issubclass(got[0], exp[0]) and got[1:] == exp[1:]


@pytest.mark.skipif(ndtile.nranks() > 1, reason="a rank's child process cannot start MPI")
def test_default_settings_raised():
    """Default tiles (arrays above the inline threshold, larger than a tile)
    in a fresh process: nothing of a raised call, NumPy's warnings of a
    returned one."""
    pkg = os.path.dirname(ndtile.__file__)
    code = textwrap.dedent(f"""
        import os, textwrap, warnings, numpy, ndtile as np
        src = '''
        def late(a, fail):
            q = a / 0
            if fail:
                raise ValueError("late")
            return q
        '''
        g = {{'np': np}}
        exec(compile(textwrap.dedent(src), os.path.join({pkg!r}, '_fperr_raised_test.py'),
                     'exec'), g)
        late = np._core.guard(g['late'])
        a = np.arange(3_000_000, dtype=np.float64)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            try:
                late(a, True)
            except ValueError:
                pass
            print(float((a + 1).sum()))
            r = late(a, False)
            print(float(r[1]))
        print(sorted(str(m.message) for m in w))
    """)
    env = {k: v for k, v in os.environ.items() if not k.startswith('NDTILE_')}
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == str(['divide by zero encountered in divide',
                                             'invalid value encountered in divide'])
