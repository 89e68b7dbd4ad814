"""Differential fuzzing of ndtile against NumPy: program generation, lockstep
execution, comparison and minimisation.

A program is a list of Python source lines over named arrays (a0, a1, ...):

    a0 = np.asarray(data(17, (3, 4), 'int16', 0))
    a1 = a0[::-2, 1:]
    a1 += 3
    a2 = a0.sum(axis=1, keepdims=True, dtype='int64')

Each line runs twice, once with `np` bound to NumPy and once with `np` bound
to ndtile, in two namespaces kept in lockstep. The generator reads the NumPy
namespace (shapes, dtypes, even values) to choose the next line, so a
program depends only on its seed and its settings (the settings only change
how large the large arrays get), and every MPI rank generates the same one.

After a line the new name (or the written array) may be compared; at the end
of the program every name is compared. Writes through results (`a1 += 3`,
`a1[...] = 0`) make aliasing visible: a write through a view must change the
base array exactly as in NumPy, and a write through a copy must not.
"""
import math
import os
import random
import re
import sys
import traceback
import warnings

import numpy

DTYPES = ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32',
          'uint64', 'float32', 'float64', 'complex64', 'complex128')
INTS = DTYPES[1:9]
FLOATS = ('float32', 'float64')
COMPLEX = ('complex64', 'complex128')
NUMERIC = DTYPES[1:]


def data(seed, shape, dtype, kind=0):
    """Deterministic test data. kind 0: small exact values (sums are exact in
    any order); 1: wide values (full integer range, normal floats); 2: as 1
    with NaN, infinities, -0.0 and extremes mixed in."""
    r = numpy.random.default_rng(seed)
    shape = tuple(shape)
    n = math.prod(shape)
    dt = numpy.dtype(dtype)
    if dt.kind == 'b':
        x = r.random(n) < 0.5
    elif dt.kind in 'iu':
        info = numpy.iinfo(dt)
        if kind == 0:
            x = r.integers(max(info.min, -9), min(info.max, 9), n, endpoint=True)
        else:
            x = r.integers(info.min, info.max, n, endpoint=True, dtype=dt)
            if kind == 2 and n:
                for v in (info.min, info.max, 0, 1, -1 if info.min < 0 else 2):
                    x[r.integers(0, n)] = v
    else:
        def real():
            if kind == 0:
                return r.integers(-8, 9, n) / 4.0
            v = r.standard_normal(n) * 10.0 ** r.integers(-3, 4)
            if kind == 2 and n:
                for s in (numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0):
                    v[r.integers(0, n)] = s
            return v
        x = real() if dt.kind == 'f' else real() + 1j * real()
    return numpy.asarray(x).astype(dt).reshape(shape)


# ---------------------------------------------------------------- comparison

# Deviations that are counted but do not fail a program (docs/fuzzing.md
# lists each with its reason). KNOWN_SEEN counts them per process.
KNOWN = {
    # NumPy raises MemoryError for an array of hundreds of GiB; ndtile is
    # not asked (it would allocate tiles lazily until memory runs out)
    'numpy-memoryerror': True,
    # an exact value equal to NumPy's but for the sign of a zero (deviation 7:
    # not promised; the name's zero signs are then checked before x / it)
    'zero-sign': True,
}
KNOWN_SEEN = {}


def known(name):
    if KNOWN.get(name):
        KNOWN_SEEN[name] = KNOWN_SEEN.get(name, 0) + 1
        return True
    return False


class Mismatch(Exception):
    def __init__(self, kind, line, detail):
        super().__init__(f"{kind} at `{line}`: {detail}")
        self.kind, self.line, self.detail = kind, line, detail


def builtin_base(exc_type):
    """The first builtin class in an exception's MRO (UFuncTypeError ->
    TypeError, AxisError -> ValueError)."""
    for c in exc_type.__mro__:
        if c.__module__ == 'builtins':
            return c
    return Exception


TOL = {'float16': 2e-3, 'float32': 2e-5, 'complex64': 2e-5, 'float64': 1e-12, 'complex128': 1e-12}


def _bad(a, b, dt, tol=0.0, ascale=0.0):
    """Mask of the elements of a (ndtile, as NumPy) that do not match b
    (NumPy): NaN and infinities where NumPy has them, finite values within
    a tolerance scaled by the array's largest finite magnitude (summation
    order may differ in the last bits)."""
    if dt.kind == 'c':
        return _bad(a.real, b.real, a.real.dtype, tol, ascale) | \
            _bad(a.imag, b.imag, a.real.dtype, tol, ascale)
    na, nb = numpy.isnan(a), numpy.isnan(b)
    fb = numpy.isfinite(b)
    bad = (na != nb) | (numpy.isfinite(a) != fb)
    inf = ~fb & ~nb
    bad |= inf & (a != b)
    if dt.kind == 'f' and ascale * 64 >= numpy.finfo(dt).max:
        # inputs whose magnitude comes near the type's largest value (partial
        # sums of up to 64 such terms reach it): another order of the same
        # additions may overflow on the way (a float32 dot of terms near
        # 1e38: 1.58e38 in NumPy's BLAS, inf in another order)
        with numpy.errstate(all='ignore'):
            edge = (numpy.isinf(a) & fb) | (numpy.isinf(b) & numpy.isfinite(a))
        bad &= ~edge
    both = fb & numpy.isfinite(a)
    if both.any():
        av, bv = a.astype(numpy.float64), b.astype(numpy.float64)
        rtol = max(TOL.get(dt.name, 2e-3), tol)
        scale = max(float(numpy.abs(bv[both]).max()), ascale)
        # and a floor of subnormal steps: each rounded product or sum in the
        # subnormal range is off by up to half of one whatever the inputs'
        # magnitudes (a dot of 35 subnormal products: -3e-45 against -4e-45)
        floor = max(64 * float(numpy.finfo(dt).smallest_subnormal), 1e-300)
        with numpy.errstate(all='ignore'):
            far = numpy.abs(av - bv) > rtol * numpy.abs(bv) + rtol * scale + floor
        bad |= both & far
    return bad


def host_copy(x):
    """A NumPy copy of an ndtile value. Not numpy.asarray: that borrows the
    array's memory (the buffer protocol), which first moves a store held in
    separate tiles into one buffer, so every later view of it would bind in
    place and the gathers across tiles would go untested."""
    f = getattr(x, '__array__', None)
    if f is not None and not isinstance(x, (numpy.ndarray, numpy.generic)):
        return f()
    return numpy.asarray(x)


def is_array(x, nd):
    return isinstance(x, (numpy.ndarray, nd.ndarray))


def ulp_distance(a, b):
    """Per-element distance in units in the last place between two real
    float arrays of one dtype (a float64 array; NaN against NaN is 0, NaN
    against a number inf; -0.0 and 0.0 are 0 apart)."""
    bits = a.dtype.itemsize * 8
    it = numpy.dtype(f'int{bits}')
    mask = (1 << (bits - 1)) - 1

    def order(x):
        i = numpy.ascontiguousarray(x).view(it).astype(numpy.int64)
        return numpy.where(i < 0, -(i & mask), i)
    oa, ob = order(a), order(b)
    same_sign = (oa >= 0) == (ob >= 0)
    with numpy.errstate(all='ignore'):
        d = numpy.where(same_sign, numpy.abs(oa - ob).astype(numpy.float64),
                        numpy.abs(oa.astype(numpy.float64)) + numpy.abs(ob.astype(numpy.float64)))
    na, nb = numpy.isnan(a), numpy.isnan(b)
    d = numpy.where(na & nb, 0.0, d)
    return numpy.where(na != nb, numpy.inf, d)


def _same(a, b):
    """Mask of the elements equal in value (NaN equal to any NaN: which NaN
    an operation makes is not compared, deviation 7), and whether some of
    them differ only in the sign of a zero."""
    if a.dtype.kind == 'c':
        m1, z1 = _same(a.real, b.real)
        m2, z2 = _same(a.imag, b.imag)
        return m1 & m2, z1 or z2
    if a.dtype.kind != 'f':
        return a == b, False
    eq = (a == b) | (numpy.isnan(a) & numpy.isnan(b))
    zs = bool((eq & (b == 0) & (numpy.signbit(a) != numpy.signbit(b))).any())
    return eq, zs


_LONG = {numpy.longlong: numpy.int64, numpy.ulonglong: numpy.uint64}


def compare(x_np, x_nd, nd, line, name, tol=0.0, ascale=0.0, level=1, ulp=None,
            nonfinite=False):
    """Raise Mismatch unless the ndtile value matches the NumPy value.

    level (docs/fuzzing.md, Inexactness): 0 - the value depends on exact
    operations only: it must equal NumPy's (NaN bits aside; a zero of the
    other sign is counted, `zero-sign`, and the return value says so); 1 - it
    depends on an inexact operation (a transcendental's last bit, a float
    sum's order): within a tolerance, tol a relative tolerance inherited
    from inputs (a float32 last bit stays a float32 last bit after a cast to
    float64) and ascale the inputs' magnitude where rounding noise is
    relative to it; ulp: where the value was just made by an elementwise
    inexact function of exact inputs, its documented bound in ULP, checked
    per element; 2 - unchecked (an input differed by an accepted rounding
    and a discontinuous operation amplified it): the type and dtype only;
    ZSIGN (0.5) is compared as 0. nonfinite: at level 1, elements that are
    infinite or NaN on either side are not compared (a BLAS product of
    infinities, deviation 5)."""
    if isinstance(x_np, (list, tuple)):
        if not isinstance(x_nd, (list, tuple)) or len(x_nd) != len(x_np):
            if level >= 2:
                return False
            raise Mismatch('type', line, f"{name}: NumPy {type(x_np).__name__} of "
                           f"{len(x_np)}, ndtile {type(x_nd).__name__}")
        zs = False
        for i, (p, q) in enumerate(zip(x_np, x_nd)):
            zs |= bool(compare(p, q, nd, line, f"{name}[{i}]", tol, ascale, level, ulp,
                               nonfinite))
        return zs
    if isinstance(x_np, numpy.ndarray):
        if not is_array(x_nd, nd):
            raise Mismatch('type', line, f"{name}: NumPy gives an array, ndtile "
                           f"{type(x_nd).__name__}")
    elif isinstance(x_np, (numpy.generic, bool, int, float, complex)):
        # one scalar type per width (deviation 18 of docs/guide/deviations.md:
        # NumPy's longlong of asarray(2**63) is ndtile's int64/uint64)
        if type(x_nd) is not _LONG.get(type(x_np), type(x_np)):
            raise Mismatch('type', line, f"{name}: NumPy gives {type(x_np).__name__}, "
                           f"ndtile {type(x_nd).__name__}")
    else:
        return False
    a = host_copy(x_nd)
    b = numpy.asarray(x_np)
    if a.dtype != b.dtype:
        raise Mismatch('dtype', line, f"{name}: NumPy {b.dtype}, ndtile {a.dtype}")
    if level >= 2:
        return False
    if a.shape != b.shape:
        raise Mismatch('shape', line, f"{name}: NumPy {b.shape}, ndtile {a.shape}")
    if a.tobytes() == b.tobytes():
        return False
    zs = False
    extra = ''
    if b.dtype.kind in 'fc' and level == 1:
        ok = ~_bad(a, b, b.dtype, tol, ascale)
        if nonfinite:
            ok |= ~(numpy.isfinite(a) & numpy.isfinite(b))
        if ulp is not None and b.dtype.kind == 'f':
            d = ulp_distance(a, b)
            far = d > ulp
            if far.any():
                ok &= ~far
                extra = f" (more than {ulp} ULP from NumPy: {float(d[far].max()):.0f})"
        if ok.all():
            return False
    else:
        ok, zs = _same(a, b)
        if ok.all():
            if zs:
                known('zero-sign')
            return zs
        if b.dtype.kind in 'fc':
            extra = ' (an exact result: compared bitwise)'
    bad = numpy.argwhere(~ok) if a.ndim else ([()] if not ok else [])
    where = tuple(int(i) for i in bad[0]) if len(bad) else ()
    raise Mismatch('value', line, f"{name}: {len(bad)} of {b.size} elements differ, "
                   f"first at {where}: NumPy {b[where]!r}, ndtile {a[where]!r}{extra}")


# ---------------------------------------------------------------- execution

def run_line(line, ns_np, ns_nd, nd):
    """Run one line in both namespaces. Returns NumPy's exception or None.
    Where an input differs by an accepted rounding and the line amplifies it
    (line_mode 'unchecked'), one raising and the other not is not a
    mismatch: the names it would have made are dropped."""
    mode = ns_np['_mode'] = line_mode(line, ns_np, ns_nd)
    if ADDITIVE.search(line):
        # the inputs' magnitude before an in-place sum or difference
        # overwrites them (track_tol: its rounding noise scales with them)
        ns_np['_pre_mag'] = _magnitude([ns_np.get(k) for k in set(NAME.findall(line))])
    err_np = err_nd = None
    with numpy.errstate(all='ignore'), warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            exec(line, ns_np)
        except Exception as e:      # noqa: BLE001 - any exception is a result
            err_np = e
        if isinstance(err_np, MemoryError) and known('numpy-memoryerror'):
            # NumPy refused a huge array (a broadcast of (n,) against (n, 1)
            # of a large n); ndtile would start on it lazily and fill the
            # machine before failing (FINDINGS), so it does not run
            ns_nd.pop(ASSIGNS.findall(line)[0] if ASSIGNS.findall(line) else '', None)
            return err_np
        try:
            exec(line, ns_nd)
        except Exception as e:      # noqa: BLE001
            err_nd = e
    if mode == 'unchecked' and (err_np is None) != (err_nd is None):
        unchecked('inexact input: exception')
        for k in ASSIGNS.findall(line):
            ns_np.pop(k, None)
            ns_nd.pop(k, None)
        return err_np if err_np is not None else err_nd
    if err_np is not None:
        if err_nd is None:
            raise Mismatch('exception', line, f"NumPy raises {type(err_np).__name__}: "
                           f"{err_np}; ndtile does not")
        base = builtin_base(type(err_np))
        if not isinstance(err_nd, base):
            raise Mismatch('exception', line, f"NumPy raises {type(err_np).__name__}: "
                           f"{err_np}; ndtile {type(err_nd).__name__}: {err_nd}")
        return err_np
    if err_nd is not None:
        raise Mismatch('exception', line, f"ndtile raises {type(err_nd).__name__}: "
                       f"{err_nd}; NumPy does not\n" +
                       ''.join(traceback.format_exception(err_nd)[-4:]))
    return None


# (group 5: a function that writes its first argument: np.put(a3, ...),
# np.copyto, np.add.at, ...)
# (a write may sit in a one-line loop, `for i in range(4): a3[i] = ...`, and
# go through a view: `a3.T[0] = `, `a3.flat[::2] = `, `a3.real[...] = `,
# `a3.reshape(-1)[::2] = ` (a copy where a3 is not contiguous), `a3.flat = `)
WRITES = re.compile(r"^(?:for [^:]*: (?:[^;]*; )?)?(a\d+)(?:\.(?:T|flat|real|imag|"
                    r"reshape\(-1\)))*\s*(\[|[-+*/%&|^<>@]{1,3}=)|out=(a\d+)|^(a\d+)\.sort\(|"
                    r"^np\.(?:put|place|putmask|copyto|put_along_axis|fill_diagonal|"
                    r"nan_to_num|\w+\.at)\((a\d+)|^(a\d+)\.put\(|"
                    r"^(a\d+)\.flat = |^(a\d+)(?:\.T|\[[^\]]*\])?\.fill\(")


def written_name(m):
    """The name a WRITES match writes."""
    return m.group(1) or m.group(3) or m.group(4) or m.group(5) or m.group(6) or \
        m.group(7) or m.group(8)


def resync(line, ns_np, ns_nd, nd):
    """After a line on which both raised: what a failed write left behind
    is not specified (NumPy's power stops at the first negative exponent
    after writing earlier elements), so copy ndtile's contents of the
    written array into NumPy's (through the same view, so aliasing
    still shows)."""
    for m in WRITES.finditer(line):
        k = written_name(m)
        a, b = ns_np.get(k), ns_nd.get(k)
        if isinstance(a, numpy.ndarray) and a.flags.writeable and b is not None:
            try:
                v = host_copy(b)
                if v.shape == a.shape and v.dtype == a.dtype:
                    a[...] = v
            except Exception:       # noqa: BLE001
                pass


ASSIGNS = re.compile(r"(?:^|; )(a\d+) = ")


def after_line(line, ns_np, ns_nd, nd, err):
    """What every line is followed by, in generation and in replay alike:
    - a failed write resyncs (resync);
    - a NumPy result that is not C-ordered and shares memory with no other
      name becomes a C-ordered copy: ndtile arrays are always C-ordered
      (tiles), NumPy keeps the order of its inputs (K order), and that would
      make a later reshape, ravel or ascontiguousarray a copy in NumPy and a
      view in ndtile (docs/fuzzing.md, deviations);
    - float16 values are dropped: float16 is not an ndtile dtype (NumPy
      gives it for bool, int8 and uint8 inputs to float ufuncs), ndtile
      hands such values to NumPy;
    - tolerances pass on (track_tol)."""
    if err is not None:
        resync(line, ns_np, ns_nd, nd)
    for k in ASSIGNS.findall(line):
        v = ns_np.get(k)
        if isinstance(v, (numpy.ndarray, numpy.generic)) and v.dtype == numpy.float16:
            ns_np.pop(k, None)
            ns_nd.pop(k, None)
            continue
        if isinstance(v, numpy.ndarray) and v.size > 1 and not v.flags.c_contiguous and \
                not any(j != k and isinstance(w, numpy.ndarray) and
                        numpy.may_share_memory(v, w) for j, w in ns_np.items()):
            ns_np[k] = numpy.ascontiguousarray(v)
            w = ns_nd.get(k)
            # ndtile keeps NumPy's Fortran layout where it copies one
            # (astype, copy, array with order 'K'): made C-ordered alike
            if isinstance(w, nd.ndarray) and w.ndim > 1 and not w.flags.c_contiguous:
                ns_nd[k] = nd.ascontiguousarray(w)
    track_tol(line, ns_np)
    track_inexact(line, ns_np, ns_np.pop('_mode', 'exact'))


def names_of(ns):
    return sorted((k for k in ns if k[:1] == 'a' and k[1:].isdigit()), key=lambda k: int(k[1:]))


NAME = re.compile(r'\ba\d+\b')


def track_tol(line, ns_np):
    """After `line`: the names it assigns or writes inherit the largest
    tolerance of the names it reads and of float32/complex64 values."""
    tols = ns_np.setdefault('_tol', {})
    used = NAME.findall(line)
    t = max([tols.get(k, 0.0) for k in used] + [0.0])
    for k in used:
        v = ns_np.get(k)
        if isinstance(v, (numpy.ndarray, numpy.generic)) and v.dtype.kind in 'fc':
            t = max(t, TOL[v.dtype.name] if v.dtype.name in TOL else 1e-3)
    if 'out=' in line:
        # NumPy may run a float32 loop and cast into a float64 out
        t = max(t, TOL['float32'])
    if 'cum' in line:
        # NumPy's scans add sequentially, ndtile's by blocks plus offsets:
        # rounding grows with the length (n eps in the worst case)
        for k in ASSIGNS.findall(line):
            v = ns_np.get(k)
            if isinstance(v, numpy.ndarray) and v.dtype.kind in 'fc':
                t = max(t, numpy.finfo(v.dtype).eps * max(v.shape + (1,)) * 4)
    for k in used:
        tols[k] = max(tols.get(k, 0.0), t)
    if t and WRITES.search(line):
        # a write through a view (out=, an in-place operator, an assignment
        # into it) changes the arrays it shares memory with too
        seen = [ns_np[k] for k in used if isinstance(ns_np.get(k), numpy.ndarray)]
        for k, v in ns_np.items():
            if NAME.fullmatch(k) and isinstance(v, numpy.ndarray) and k not in used and \
                    any(numpy.may_share_memory(v, w) for w in seen):
                tols[k] = max(tols.get(k, 0.0), t)
    if t and (REDUCING.search(line) or ADDITIVE.search(line)):
        # a reduction of values with rounding noise: the noise is relative
        # to the inputs, not to the result (the std of equal values that
        # differ in the last bit is not 0); so is a sum or difference's
        # (cos(x) - 1 of a cos 1 ULP off: -1.13e-6 against -1.07e-6)
        scales = ns_np.setdefault('_abs', {})
        mags = [0.0]
        for k in used:
            v = ns_np.get(k)
            if isinstance(v, numpy.ndarray) and v.dtype.kind in 'fc' and v.size:
                with numpy.errstate(all='ignore'):
                    f = numpy.abs(v[numpy.isfinite(v)]) if v.size < 5_000_000 else numpy.abs(v)
                mags.append(float(f.max()) if f.size else 0.0)
        sizes = [v.size for v in (ns_np.get(k) for k in used) if isinstance(v, numpy.ndarray)]
        for call in _DATA.finditer(line):
            # an operand made on the line itself (np.dot(a5, np.asarray(data(...))))
            v = eval(call.group(0), {'data': data})
            sizes.append(v.size)
            if v.dtype.kind in 'fc' and v.size:
                mags.append(_magnitude([v]))
        if _BLAS.search(line):
            # (an integer operand's magnitude scales the terms too: a float32
            # sin(x) @ uint16 values of 59786 terms up to 65535: 226311.2 in
            # NumPy's BLAS, 226333.02 through the device's matvec)
            ints = [ns_np.get(k) for k in used] + \
                [eval(c.group(0), {'data': data}) for c in _DATA.finditer(line)]
            for v in ints:
                if isinstance(v, numpy.ndarray) and v.dtype.kind in 'iu' and \
                        0 < v.size < 5_000_000:
                    mags.append(float(numpy.abs(v.astype(numpy.float64)).max()))
        if _BLAS.search(line) and len(mags) > 1:
            # a product's sum of K terms: its rounding noise is relative to
            # the terms (|x| |y|), not to the result, which may cancel, and
            # grows with the number of terms K (<= the largest operand's
            # size): a float32 dot of 812508 terms of about 1 came out at
            # -17.5402 in NumPy's BLAS, -17.5410 in ndtile's blocks and
            # -17.5409 in float64
            mags.sort()
            mags.append(mags[-1] * max(1.0, mags[-2]) * math.sqrt(max(sizes + [1])))
        m = max(mags + [ns_np.pop('_pre_mag', 0.0)])
        if re.search(r"\b(nan)?var\(", line):
            # a variance is a mean of squares: its rounding noise scales with
            # the inputs' square (18 equal float32 values of 1e10 whose mean
            # is a bit off in one order have a variance of 1048576)
            m = m * m
        for k in _touched(line, ns_np)[0]:   # assigned, written in place, their views
            scales[k] = max(scales.get(k, 0.0), m)


def _magnitude(values):
    """The largest finite magnitude among the float arrays of values."""
    m = 0.0
    for v in values:
        if isinstance(v, numpy.ndarray) and v.dtype.kind in 'fc' and 0 < v.size < 5_000_000:
            with numpy.errstate(all='ignore'):
                f = numpy.abs(v[numpy.isfinite(v)])
            if f.size:
                m = max(m, float(f.max()))
    return m


_DATA = re.compile(r"\bdata\(\d+, \([\d, ]*\), '\w+'(, \d+)?\)")
REDUCING = re.compile(r"\b(sum|prod|mean|std|var|cumsum|cumprod|diff|matmul|dot|nansum|nanprod|"
                      r"nanmean|nanstd|nanvar|nancumsum|nancumprod|trace|einsum|tensordot|"
                      r"inner|norm|solve|inv|det|fft|ifft|rfft|irfft|hfft|fftn|ifftn|rfftn|"
                      r"reduce|accumulate|reduceat|at|median|percentile|quantile|nanmedian|"
                      r"nanpercentile|nanquantile|bincount|pad|convolve|correlate|cross|vecdot|"
                      r"matvec|vecmat|trapezoid|gradient|interp|apply_along_axis|"
                      r"histogram2d|histogramdd|average|cov|corrcoef|cumulative_sum|"
                      r"cumulative_prod|vander|polyval|polymul|polyint|polyder|vdot)\(|@")
# an addition or subtraction (binary operators are written with spaces)
ADDITIVE = re.compile(r"\s[-+]=?\s|\b(add|subtract)\(")


# ---------------------------------------------------------------- inexactness
#
# Which values may differ from NumPy's by an accepted rounding (docs/fuzzing.md,
# Inexactness). ns_np['_lvl'] holds a level per name: absent (0) - the value
# comes from exact operations on exact data and must equal NumPy's; 1 - it
# depends on an inexact operation (TRANSCENDENTAL, _ORDER, _CPLX below) and
# is compared within a tolerance; ZSIGN (0.5) - exact but for zero signs; 2 - unchecked: an input really differed (by an accepted
# rounding) and a discontinuous or ill-conditioned operation (SENSITIVE)
# could amplify that to anything (a cast to int, %, a comparison and the mask
# it makes, argmax, ** of a negative base, cos of 1e21). Before a SENSITIVE
# line reads a level-1 name, or any line a level-2 name, the two values are
# compared: when they are equal in every bit, the name is exact again (the
# operation then has the same inputs in both and must give the same result);
# only a real difference makes the line's results unchecked.

# elementwise functions whose last bits are not promised (SLEEF u10 against
# NumPy's own loops; libm's pow): within ULP_BOUND of NumPy for real results
# (src/kernels/cpu/loops_math.c, docs/guide/deviations.md 4)
TRANSCENDENTAL = ('exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan',
                  'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh',
                  'arctanh', 'cbrt', 'arctan2', 'hypot', 'logaddexp', 'logaddexp2', 'power',
                  'float_power', 'acos', 'asin', 'atan', 'acosh', 'asinh', 'atanh', 'atan2', 'pow')
ULP_BOUND = 4
_TRANSC = re.compile(r"\bnp\.(%s)\(|\*\*" % '|'.join(TRANSCENDENTAL))
# the order of a float sum, product or BLAS dot is not promised (deviation 4)
_ORDER = re.compile(r"\b(sum|prod|mean|std|var|cumsum|cumprod|matmul|dot|nansum|nanprod|nanmean|"
                    r"nanstd|nanvar|nancumsum|nancumprod|trace|einsum|tensordot|inner|reduce|"
                    r"accumulate|reduceat|at|bincount|convolve|correlate|cross|vecdot|matvec|"
                    r"vecmat|apply_along_axis|average|cumulative_sum|cumulative_prod|vander|"
                    r"polyval|polymul|polyint|polyder|vdot)\(|@")
# inexact whatever the inputs' dtypes (an integer input gives a float result
# through interpolation, LAPACK or an FFT; a mean of a pad): compared within
# the tolerance
_ALWAYS = re.compile(r"\bnp\.(linalg|fft)\.|\b(median|percentile|quantile|nanmedian|"
                     r"nanpercentile|nanquantile|nanmean|nanstd|nanvar|histogram|histogram2d|"
                     r"histogramdd|interp|gradient|trapezoid|cov|corrcoef|geomspace|logspace|"
                     r"unwrap|sinc|angle|histogram_bin_edges|bartlett|blackman|hamming|hanning|"
                     r"polydiv)\(|"
                     r"mode='(mean|median|linear_ramp)'")
# complex arithmetic: fma contraction in NumPy's SIMD loops and not in its
# scalar ones (deviation 11), the division and hypot algorithms
_CPLX = re.compile(r"[*/]|\b(multiply|divide|true_divide|square|reciprocal|absolute|abs|sqrt|"
                   r"sign)\(")
# discontinuous in a float input, or ill-conditioned (any transcendental,
# division, a square root or log at the edge of its domain, a product of
# many terms): a last-bit difference in an input may change the result by
# anything
SENSITIVE = re.compile(
    r"astype\(|dtype=|%|//|/|[<>=!]=|[<>]|\*\*|\b(floor|ceil|trunc|rint|round|around|fix|sign|"
    r"signbit|copysign|heaviside|spacing|nextafter|remainder|fmod|floor_divide|divmod|"
    r"greater|less|equal|not_equal|greater_equal|less_equal|logical_and|logical_or|"
    r"logical_xor|logical_not|isclose|allclose|array_equal|isnan|isinf|isfinite|argmax|"
    r"argmin|argsort|unique|searchsorted|nonzero|count_nonzero|any|all|prod|cumprod|"
    r"reciprocal|sqrt|divide|true_divide|nanargmax|nanargmin|nanprod|nancumprod|digitize|"
    r"histogram|bincount|lexsort|argwhere|flatnonzero|histogram2d|histogramdd|isin|setdiff1d|"
    r"intersect1d|union1d|setxor1d|unique_values|unique_counts|unique_inverse|unique_all|"
    r"frexp|modf|cumulative_prod|packbits|unpackbits|isposinf|isneginf|isreal|iscomplex|"
    r"real_if_close|trim_zeros|array_equiv|asarray_chkfinite|unwrap|histogram_bin_edges|"
    r"tobytes|sinc|angle|mod|polydiv|" + '|'.join(TRANSCENDENTAL) + r")\b|\.view\((?!\))|"
    r"\bmultiply\.(reduce|accumulate|reduceat|outer)\b")
# level ZSIGN: a value equal to NumPy's but for the signs of zeros, which are
# not promised (deviation 7): NumPy's unstable sort and partition order -0.0
# and 0.0 their own way, unique keeps either, clip(-0.0, 0, 1) is 0.0 or
# -0.0 (deviation 11). Compared as an exact value; a SENSITIVE line reading
# it (x / it, copysign) checks it bit for bit first, as for an inexact one.
ZSIGN = 0.5
_ZSIGN = re.compile(r"\b(sort|sort_complex|partition|unique|clip|median|percentile|quantile|nanmedian|"
                    r"nanpercentile|nanquantile|lexsort|unique_values|unique_counts|"
                    r"unique_inverse|unique_all|setdiff1d|intersect1d|union1d|setxor1d)\(")
# ops that move elements by value: an input whose non-finite elements are
# not compared (a BLAS product, deviation 5: nan against inf) lands them
# elsewhere, and every finite element after them moves too
_REORDER = re.compile(r"\b(sort|partition|argpartition|sort_complex|median|percentile|quantile|"
                      r"nanmedian|nanpercentile|nanquantile|lexsort)\(")
# ops that order values: discontinuous for complex ones (line_mode)
_CORDER = re.compile(r"\b(max|min|amax|amin|maximum|minimum|fmax|fmin|nanmax|nanmin|sort|argsort|"
                     r"partition|argpartition|median|percentile|quantile|nanmedian|"
                     r"nanpercentile|nanquantile|lexsort|clip|unique|searchsorted|argmax|"
                     r"argmin|nanargmax|nanargmin|unique_values|unique_counts|unique_inverse|"
                     r"unique_all|setdiff1d|intersect1d|union1d|setxor1d|isin|interp|"
                     r"sort_complex|ptp|trim_zeros)\b")
UNCHECKED = {}      # why a line was not checked -> count, per process


def unchecked(why):
    UNCHECKED[why] = UNCHECKED.get(why, 0) + 1


def _identical(x_np, x_nd):
    """The two values are the same in every bit but NaNs' (forces ndtile's
    value: only asked where an input's exactness decides a check)."""
    if x_nd is None:
        return False
    if not isinstance(x_np, (numpy.ndarray, numpy.generic, bool, int, float, complex)):
        return True
    try:
        a, b = host_copy(x_nd), numpy.asarray(x_np)
    except Exception:           # noqa: BLE001
        return False
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.tobytes() == b.tobytes():
        return True
    eq, _ = _same(a, b)
    if not eq.all():
        return False
    # equal values: the signs of zeros must agree too (copysign, 1/x)
    if b.dtype.kind == 'c':
        return bool((numpy.signbit(a.real) == numpy.signbit(b.real)).all() and
                    (numpy.signbit(a.imag) == numpy.signbit(b.imag)).all()) or \
            bool(numpy.isnan(b).all())
    return bool(((numpy.signbit(a) == numpy.signbit(b)) | numpy.isnan(b)).all())


# ops that read the sign bit of a NaN into a value that is not a NaN
_SIGNREAD = re.compile(r"\b(signbit|copysign)\(")
# lines that read every bit of a value (a NaN's payload too)
_BITREAD = re.compile(r"\.tobytes\(|\.view\((?!\))")


def align_nan_signs(line, ns_np, ns_nd):
    """Before a line that reads sign bits (signbit, copysign) or all the
    bits (tobytes, view(dtype)): the signs and payloads of NaNs are not
    promised (deviation 7: x86's default NaN is negative, and NumPy's and
    SLEEF's loops make either), so where an input is a NaN in both, NumPy's
    is given ndtile's bits (its sign, or all of them for a bit read); every
    other element (a NaN in one only, the sign of a number) is compared as
    before. Returns False when an input NumPy cannot write (a broadcast
    view) differs so: the line is then not checked."""
    code = line.split('  # ')[0]
    bits = _BITREAD.search(code) is not None
    if not bits and not _SIGNREAD.search(code):
        return True
    ok = True
    for k in dict.fromkeys(NAME.findall(code)):
        v, w = ns_np.get(k), ns_nd.get(k)
        if w is None:
            continue
        if isinstance(v, numpy.ndarray) and v.dtype.kind in ('fc' if bits else 'f') and v.size:
            if not numpy.isnan(v).any():
                continue
            try:
                b = host_copy(w)
            except Exception:       # noqa: BLE001
                continue
            if b.shape != v.shape or b.dtype != v.dtype:
                continue
            for pv, pb in ((v.real, b.real), (v.imag, b.imag)) if v.dtype.kind == 'c' else \
                    ((v, b),):
                u = 'u%d' % pv.dtype.itemsize
                differ = pv.view(u) != pb.view(u) if bits else \
                    numpy.signbit(pv) != numpy.signbit(pb)
                fix = numpy.isnan(pv) & numpy.isnan(pb) & differ
                if not fix.any():
                    continue
                unchecked('NaN sign (deviation 7)')
                if v.flags.writeable:
                    pv[fix] = pb[fix]
                else:
                    ok = False
        elif isinstance(v, (float, numpy.floating)) and v != v:
            try:
                b = host_copy(w)
            except Exception:       # noqa: BLE001
                continue
            if b.shape == () and b.dtype.kind == 'f' and numpy.isnan(b) and \
                    numpy.signbit(b) != numpy.signbit(v):
                unchecked('NaN sign (deviation 7)')
                ns_np[k] = type(v)(b[()]) if isinstance(v, numpy.floating) else float(b[()])
    return ok


def line_mode(line, ns_np, ns_nd):
    """Before a line runs: 'exact' (every input it reads is exact), 'zsign'
    (some input's zero signs are not promised), 'tolerant' (some input
    depends on an inexact operation) or 'unchecked' (an input differs and
    the line may amplify that). A SENSITIVE line's inexact inputs, and any
    line's unchecked ones, are compared bit for bit here first."""
    lvl = ns_np.setdefault('_lvl', {})
    if not align_nan_signs(line, ns_np, ns_nd):
        return 'unchecked'
    used = [k for k in dict.fromkeys(NAME.findall(line)) if k in ns_np]
    sens = SENSITIVE.search(line.split('  # ')[0]) is not None
    for m in WRITES.finditer(line):
        # a float value written into an integer or bool array is cast
        t = ns_np.get(written_name(m))
        if isinstance(t, numpy.ndarray) and t.dtype.kind in 'iub':
            sens = True
    if not sens and any(lvl.get(k) for k in used) and _MULT.search(line.split('  # ')[0]) and \
            _nonfinite_input(line, ns_np):
        # inf times a value that is 0.0 in one and 1e-16 in the other (a
        # cancellation) is nan against inf
        sens = True
    if not sens and _CORDER.search(line.split('  # ')[0]) and _involves(line, ns_np, 'c'):
        # complex values are ordered by the real part, then the imaginary:
        # a last bit of a real part (an FFT's conjugate pair) decides which
        # of two values is the max, sorts first or is the median
        sens = True
    mode = 'exact'
    rank = ('exact', 'zsign', 'tolerant', 'unchecked')
    nf = ns_np.get('_nf', set())
    reorder = _REORDER.search(line.split('  # ')[0]) is not None
    for k in used:
        v = lvl.get(k, 0)
        if v == 0 or (v <= 1 and not sens and not (reorder and k in nf)):
            if v:
                m = 'tolerant' if v == 1 else 'zsign'
                mode = max(mode, m, key=rank.index)
            continue
        if _identical(ns_np[k], ns_nd.get(k)):
            lvl.pop(k, None)
            ns_np.get('_nf', set()).discard(k)
        else:
            mode = 'unchecked'
    return mode


def _involves(line, ns_np, kinds):
    for k in NAME.findall(line):
        v = ns_np.get(k)
        if isinstance(v, (numpy.ndarray, numpy.generic)) and v.dtype.kind in kinds:
            return True
        if isinstance(v, (float, complex)) and ('f' in kinds or isinstance(v, complex)):
            return True
    return False


def _touched(line, ns_np):
    """The names a line assigns or writes through, with the names that share
    memory with a written one."""
    out = list(ASSIGNS.findall(line))
    written = [written_name(m) for m in WRITES.finditer(line)]
    out += written
    seen = [ns_np[k] for k in written if isinstance(ns_np.get(k), numpy.ndarray)]
    if seen:
        for k, v in ns_np.items():
            if NAME.fullmatch(k) and isinstance(v, numpy.ndarray) and k not in out and \
                    any(numpy.may_share_memory(v, w) for w in seen):
                out.append(k)
    return list(dict.fromkeys(out)), written


_BLAS = re.compile(r"@|\b(matmul|dot|einsum|tensordot|inner|solve|inv|det|convolve|correlate|"
                   r"vecdot|matvec|vecmat|vdot)\(")
_MULT = re.compile(r"(?<!\*)\*(?!\*)|@|\b(matmul|dot|multiply)\(")


def _nonfinite_input(line, ns_np):
    lhs = set(ASSIGNS.findall(line))
    for k in NAME.findall(line):
        v = ns_np.get(k)
        if k not in lhs and isinstance(v, numpy.ndarray) and v.dtype.kind in 'fc' and \
                v.size and not numpy.isfinite(v).all():
            return True
    # data(..., kind 2) operands made on the line itself hold infinities
    return re.search(r"data\(\d+, [^)]*\), '(float|complex)\d+', 2\)|np\.(inf|nan)\b",
                     line) is not None


def track_inexact(line, ns_np, mode):
    """After a line: the levels of what it made or wrote."""
    lvl = ns_np.setdefault('_lvl', {})
    ulp = ns_np.setdefault('_ulp', {})
    touched, written = _touched(line, ns_np)
    code = line.split('  # ')[0]
    for k in touched + NAME.findall(line):
        ulp.pop(k, None)
    if mode == 'unchecked':
        new = 2
    elif mode == 'tolerant':
        new = 1
    else:
        fc = _involves(line, ns_np, 'fc')
        src = fc and (_TRANSC.search(code) or _ORDER.search(code))
        src = src or (_involves(line, ns_np, 'c') and _CPLX.search(code)) or \
            _ALWAYS.search(code)
        new = 1 if src else (ZSIGN if mode == 'zsign' or (fc and _ZSIGN.search(code)) else 0)
        if src and _TRANSC.search(code) and not _ORDER.search(code) and \
                not _involves(line, ns_np, 'c') and \
                ('out=' not in code or len({ns_np[k].dtype.name for k in NAME.findall(line)
                                            if isinstance(ns_np.get(k), (numpy.ndarray,
                                                                         numpy.generic))}) == 1):
            # an elementwise function of exact inputs: its documented bound
            # (not where out= is of another dtype than an input: the loop
            # runs in the inputs' precision, np.sin(int16, out=float64) in
            # float32, so its last bit is many float64 ULP; nor for the
            # parts of an array that the line did not write)
            full = set(ASSIGNS.findall(line)) | set(written)
            for k in touched:
                if k in full or not lvl.get(k):
                    ulp[k] = ULP_BOUND
    nf = ns_np.setdefault('_nf', set())
    inherit = mode == 'tolerant' and any(k in nf for k in NAME.findall(line)
                                         if k not in ASSIGNS.findall(line))
    if new < 2 and _BLAS.search(code) and _nonfinite_input(line, ns_np):
        # deviation 5: NumPy's bundled OpenBLAS and the system's propagate
        # infinities and NaN through a product differently (inf against
        # nan): the finite elements are compared, the others not
        new = max(new, 1)
        inherit = True
        unchecked('BLAS product of infinities or NaN (non-finite elements)')
    for k in touched:
        if k in ns_np:
            if inherit and max(lvl.get(k, 0), new) >= 1:
                nf.add(k)
            elif k in ASSIGNS.findall(line):
                nf.discard(k)
    for k in touched:
        if k not in ns_np:
            continue
        old = lvl.get(k, 0)
        # a partial write keeps what the rest of the array was
        v = max(old, new) if k in written or k not in ASSIGNS.findall(line) else new
        if v:
            lvl[k] = v
        else:
            lvl.pop(k, None)
    if mode == 'unchecked':
        unchecked('inexact input')
    if mode == 'tolerant':
        # rounding noise is relative to the inputs' magnitude (a difference
        # of two values each a bit off); a product scales it
        scales = ns_np.setdefault('_abs', {})
        mags = []
        for k in NAME.findall(line):
            v = ns_np.get(k)
            if isinstance(v, numpy.ndarray) and v.dtype.kind in 'fc' and v.size and \
                    k not in ASSIGNS.findall(line):
                with numpy.errstate(all='ignore'):
                    f = numpy.abs(v[numpy.isfinite(v)]) if v.size < 5_000_000 else numpy.abs(v)
                    mags.append(max(float(f.max()) if f.size else 0.0, scales.get(k, 0.0)))
        if mags:
            mags.sort()
            m = mags[-1] * (max(1.0, mags[-2]) if len(mags) > 1 and
                            re.search(r"(?<!\*)\*(?!\*)|@|matmul|dot|multiply", code) else 1.0)
            for k in touched:
                scales[k] = max(scales.get(k, 0.0), m)


def compare_name(ns_np, ns_nd, nd, line, k):
    """Compare one name at its level; a zero of the other sign (deviation 7)
    makes the name's zero signs unpromised from then on (ZSIGN: copysign,
    1/x would amplify them)."""
    lvl = ns_np.get('_lvl', {})
    zs = compare(ns_np[k], ns_nd.get(k), nd, line, k, ns_np.get('_tol', {}).get(k, 0.0),
                 ns_np.get('_abs', {}).get(k, 0.0), lvl.get(k, 0), ns_np.get('_ulp', {}).get(k),
                 k in ns_np.get('_nf', ()))
    if zs and not lvl.get(k):
        ns_np.setdefault('_lvl', {})[k] = ZSIGN


def compare_all(ns_np, ns_nd, nd, line):
    for k in names_of(ns_np):
        if k not in ns_nd:
            if ns_np.get('_lvl', {}).get(k, 0) >= 2:
                continue
            raise Mismatch('type', line, f"{k} missing in ndtile")
        compare_name(ns_np, ns_nd, nd, line, k)


def namespaces(nd):
    return {'np': numpy, 'data': data}, {'np': nd, 'data': data}


def replay(lines, nd, every=True):
    """Run a program's lines; compare every name after each line (every) or
    the lines' own choice (a trailing `# check` comment) and all at the end.
    Raises Mismatch at the first difference."""
    ns_np, ns_nd = namespaces(nd)
    for line in lines:
        after_line(line, ns_np, ns_nd, nd, run_line(line, ns_np, ns_nd, nd))
        if every or line.endswith('# check'):
            compare_all(ns_np, ns_nd, nd, line)
    compare_all(ns_np, ns_nd, nd, '<end of program>')


# ---------------------------------------------------------------- generation

# the CUDA plugin's host build (make build): the plugin's own code, kernels
# and fused interpreter on an emulated CUDA runtime (tests/cudahost)
CUDAHOST = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'build', 'tests', 'cudahost', 'libndtile_cudahost.so')

SETTINGS = {
    # name: (environment, ranks, largest "large" array in elements)
    'default': ({}, 1, 3_000_000),
    'small_tiles': ({'NDTILE_TILE_BYTES': '4096'}, 1, 200_000),
    'inline0': ({'NDTILE_INLINE_ELEMS': '0'}, 1, 1_000_000),
    'workers1': ({'NDTILE_WORKERS': '1'}, 1, 3_000_000),
    'workers2': ({'NDTILE_WORKERS': '2'}, 1, 3_000_000),
    'short_lookahead': ({'NDTILE_MAX_PENDING': '2', 'NDTILE_MAX_PENDING_BYTES': '65536'},
                        1, 1_000_000),
    'ranks2': ({'NDTILE_WORKERS': '1'}, 2, 1_000_000),
    'ranks3': ({'NDTILE_WORKERS': '1'}, 3, 1_000_000),
    # devices: two simulated ones of 4 MiB (copies, evictions, fallbacks), and
    # two emulated CUDA devices of 16 MiB each (the plugin's kernels)
    'sim2': ({'NDTILE_DEVICES': 'sim:2,mem=4M'}, 1, 1_000_000),
    'cudahost': ({'NDTILE_DEVICES': 'cuda:0,1', 'NDTILE_CUDA_PLUGIN': CUDAHOST,
                  'NDTILE_CUDA_MEM': '16M', 'NDTILE_CUDAHOST_STATS': '1'}, 1, 1_000_000),
    # the same with 4 KiB tiles: views over more tiles than one index or
    # view copy launch takes (512), many small device tasks
    'cudahost_small_tiles': ({'NDTILE_DEVICES': 'cuda:0,1', 'NDTILE_CUDA_PLUGIN': CUDAHOST,
                              'NDTILE_CUDA_MEM': '16M', 'NDTILE_TILE_BYTES': '4096'},
                             1, 400_000),
    # two ranks, an emulated CUDA device each (fused groups of many ranks,
    # messages to and from device-resident tiles)
    'cudahost_ranks2': ({'NDTILE_WORKERS': '1', 'NDTILE_DEVICES': 'cuda:0',
                         'NDTILE_CUDA_PLUGIN': CUDAHOST, 'NDTILE_CUDA_MEM': '16M'}, 2, 1_000_000),
}
# Every setting runs under the runtime's check of each task's operands
# (NDTILE_CHECK: no element in two written operands, a read beside a write
# only in place; docs/design.md, "Tasks and dependencies"): a violation
# aborts, a crash the driver reports with its seed.
for _env, _ranks, _cap in SETTINGS.values():
    _env['NDTILE_CHECK'] = 'abort'

UNARY = ('negative', 'positive', 'absolute', 'sign', 'sqrt', 'exp', 'log', 'log2', 'log10',
         'log1p', 'expm1', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh',
         'tanh', 'arcsinh', 'arctanh', 'floor', 'ceil', 'trunc', 'rint', 'square',
         'reciprocal', 'logical_not', 'invert', 'isnan', 'isinf', 'isfinite', 'signbit',
         'conjugate', 'cbrt', 'exp2', 'deg2rad', 'fabs', 'spacing')
BINARY = ('add', 'subtract', 'multiply', 'divide', 'true_divide', 'floor_divide', 'remainder',
          'fmod', 'power', 'maximum', 'minimum', 'fmax', 'fmin', 'greater', 'less', 'equal',
          'not_equal', 'greater_equal', 'less_equal', 'logical_and', 'logical_or',
          'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'left_shift',
          'right_shift', 'arctan2', 'hypot', 'copysign', 'heaviside', 'logaddexp',
          'nextafter', 'gcd', 'lcm')
OPS = ('+', '-', '*', '/', '//', '%', '**', '&', '|', '^', '<<', '>>', '<', '<=', '==', '!=',
       '>', '>=')
REDUCE = ('sum', 'prod', 'max', 'min', 'mean', 'any', 'all', 'argmax', 'argmin', 'std', 'var')


def fits(shape, into):
    """shape broadcasts to `into`."""
    try:
        return numpy.broadcast_shapes(shape, into) == tuple(into)
    except ValueError:
        return False


class Instead(Exception):
    """A step found no array to work on (Gen.arg): its line is this one."""

    def __init__(self, line):
        super().__init__(line)
        self.line = line


# the step families a run can focus on (--writes, --api, --mixes, --idioms,
# --selfref, --lib, --gaps): Gen's method of each, and its weight among the
# steps where it is not the focus
FAMILIES = {'writes': 8, 'api': 10, 'mix': 6, 'idiom': 5, 'selfref': 5, 'lib': 6, 'gaps': 5,
            'edges': 5}


class Gen:
    """Draws the next line of a program from the NumPy namespace's state."""

    def __init__(self, seed, big_max=3_000_000, avoid=False, focus=None, ranks=1):
        """avoid: steer clear of the constructs of known_open.py's bugs, so
        that programs run on past them (a campaign mode); focus: one of
        FAMILIES, whose steps then take about a third of the steps (writes:
        the write patterns, Gen.writes; api: the API steps; mix: mixed
        layouts and arithmetic edges; idiom: the idioms of real programs at
        default sizes; selfref: writes of an array from itself; lib: the
        library functions and method forms; gaps: the names and forms no
        other family makes); ranks: the setting's rank count (the same on
        every rank; a view of another item size is a copy on several ranks,
        deviation 17, so not made there)."""
        assert focus is None or focus in FAMILIES, focus
        self.avoid = avoid
        self.ranks = ranks
        self.focus = focus
        self.r = random.Random(seed)
        self.seed = seed
        self.big_max = big_max
        self.n = 0
        self.big = 0
        self.queue = []         # lines a step asked for next (a write through its view)

    # -- helpers
    def new(self):
        name = f"a{self.n}"
        self.n += 1
        return name

    def pick(self, ns, pred=None):
        """An existing name, recent ones more likely."""
        names = [k for k in names_of(ns) if isinstance(ns[k], numpy.ndarray) and
                 (pred is None or pred(ns[k]))]
        if not names:
            return None
        i = len(names) - 1 - min(int(self.r.expovariate(0.5)), len(names) - 1)
        return names[i]

    def arg(self, ns, pred=None, write=False, any_else=False, instead=None):
        """The prologue of a step: an existing name x (satisfying pred,
        else any name where any_else; one to write through where write),
        its NumPy value and a new name for the result. Where no name
        fits, the step is a fresh array's creation instead (or the line
        of `instead`): raised as Instead, which Gen.step returns."""
        if write and self.avoid:
            pred = (lambda v: v.flags.writeable) if pred is None else \
                (lambda v, p=pred: v.flags.writeable and p(v))
        x = self.pick(ns, pred)
        if x is None and any_else:
            x = self.pick(ns)
        if x is None:
            raise Instead((instead or self.create)(ns))
        return x, ns[x], self.new()

    def pick_w(self, ns):
        """A name to write through (read-only ones too, unless avoiding
        open bugs: broadcast_to results are writable in ndtile)."""
        if self.avoid:
            return self.pick(ns, lambda v: v.flags.writeable)
        return self.pick(ns)

    def shape(self):
        r = self.r
        if r.random() < 0.04 and self.big < 2:
            self.big += 1
            n = int(math.exp(r.uniform(math.log(40_000), math.log(self.big_max))))
            nd = r.choice((1, 1, 2, 2, 3))
            if nd == 1:
                return (n,)
            if nd == 2:
                a = r.choice((1, 3, 7, 64, 100, 1000, 1025))
                return (a, max(1, n // a)) if r.random() < 0.5 else (max(1, n // a), a)
            a, b = r.choice((2, 3, 5)), r.choice((7, 16, 33))
            return (a, b, max(1, n // (a * b)))
        nd = r.choice((0, 1, 1, 2, 2, 2, 3, 3, 4, 5))
        return tuple(r.choice((0, 1, 1, 2, 3, 4, 5, 6, 7)) if r.random() < 0.08 else
                     r.choice((1, 2, 3, 4, 5, 6, 7)) for _ in range(nd))

    def dtype(self, among=DTYPES):
        return self.r.choice(among)

    def scalar(self, dt=None):
        """Source text for a scalar of any kind."""
        r = self.r
        k = r.random()
        if k < 0.25:
            return repr(r.choice((0, 1, 2, 3, -1, -3, 7, 100, 300, -129, 2 ** 31, 2 ** 40,
                                  2 ** 63, -2 ** 63)) if r.random() < 0.3 else r.randint(-5, 9))
        if k < 0.45:
            return repr(r.choice((0.5, -1.5, 2.0, 0.0, -0.0, 1e10, 3.25, -7.75)))
        if k < 0.55:
            return repr(r.choice((True, False)))
        if k < 0.62:
            return repr(r.choice((1 + 2j, -0.5j, 2 + 0j)))
        if k < 0.7:
            return r.choice(("np.nan", "np.inf", "-np.inf"))
        t = dt or r.choice(DTYPES)
        v = {'b': 'True', 'i': '-3', 'u': '5', 'f': '1.5', 'c': '(2-1j)'}[numpy.dtype(t).kind]
        return f"np.{t}({v})"

    def axis(self, ndim, allow_none=True, allow_tuple=True):
        r = self.r
        if ndim == 0 or (allow_none and r.random() < 0.25):
            return None if allow_none else 0
        if allow_tuple and ndim > 1 and r.random() < 0.25:
            k = r.randint(1, ndim)
            return tuple(sorted(r.sample(range(ndim), k)))
        ax = r.randrange(ndim)
        if r.random() < 0.3:
            ax -= ndim
        if r.random() < 0.03:
            ax = ndim + 1            # AxisError
        return ax

    def bshape(self, shape):
        """A shape that broadcasts against `shape` (rarely one that does not)."""
        r = self.r
        s = list(shape)
        if s and r.random() < 0.5:
            s = s[r.randint(0, len(s)):]
        s = [1 if r.random() < 0.3 else d for d in s]
        if r.random() < 0.1 and not self.avoid:
            s = [1] * r.randint(0, 2) + s
        if s and r.random() < 0.03:
            s[r.randrange(len(s))] += 1    # does not broadcast
        return tuple(s)

    def slice_text(self, d):
        r = self.r
        k = r.random()
        if k < 0.2:
            return ':'
        if k < 0.4:
            return '::-1'
        step = r.choice((1, 1, 2, 3, -1, -2, -3))
        lo = r.choice(('', str(r.randint(-d - 1, d + 1))))
        hi = r.choice(('', str(r.randint(-d - 1, d + 1))))
        return f"{lo}:{hi}" + (f":{step}" if step != 1 else '')

    def basic_index(self, shape):
        r = self.r
        parts, dims = [], list(shape)
        i = 0
        used_ellipsis = False
        while i < len(dims):
            k = r.random()
            if k < 0.05 and not used_ellipsis:
                parts.append('...')
                used_ellipsis = True
                i = len(dims) - r.randint(0, len(dims) - i)
                continue
            if k < 0.1:
                parts.append('None')
                continue
            if k < 0.35 and dims[i]:
                v = r.randint(-dims[i], dims[i] - 1)
                if r.random() < 0.02:
                    v = dims[i]      # IndexError
                parts.append(str(v))
            elif r.random() < 0.15:
                break                # trailing axes implied
            else:
                parts.append(self.slice_text(dims[i]))
            i += 1
        if not parts:
            return '...'
        return ', '.join(parts)

    def adv_index(self, name, x):
        r = self.r
        shape = x.shape
        if x.ndim == 0:
            return self.r.choice(('...', '()', 'None', 'np.array(True)'))
        k = r.random()
        if k < 0.25:
            # boolean mask from the data itself
            return f"{name} {r.choice(('>', '<', '!=', '=='))} {r.choice(('0', '1', '2'))}" \
                if x.dtype.kind not in 'bc' else (f"{name}" if x.dtype.kind == 'b' else
                                                  f"{name}.real > 0")
        if k < 0.35:
            m = data(r.randrange(1 << 30), shape[:r.randint(1, x.ndim)], 'bool').tolist()
            return f"np.array({m})" if len(repr(m)) < 400 else '...'
        # integer arrays on one or two axes, with slices around
        parts = []
        nadv = 0
        for d in shape:
            if nadv < 2 and r.random() < 0.5:
                n = r.randint(0, 4)
                if d > 100 and r.random() < 0.3:
                    # near the ends: fits a narrow index type (-1 + d
                    # does not: int8 indices into 300 elements, session 29)
                    idx = [r.choice((0, 1, 2, -1, -2, -3, 100, -100)) for _ in range(n)]
                else:
                    idx = [r.randint(-d, d - 1) for _ in range(n)] if d else []
                if r.random() < 0.02:
                    idx.append(d)     # IndexError
                parts.append(f"np.array({idx}, dtype='{self.index_dtype(idx)}')"
                             if r.random() < 0.3 or not idx else repr(idx))
                nadv += 1
            elif r.random() < 0.3:
                parts.append(str(r.randint(-d, d - 1)) if d else ':')
            else:
                parts.append(self.slice_text(d))
            if r.random() < 0.3:
                break
        if nadv == 0:
            parts[0] = f"[{r.randint(-shape[0], shape[0] - 1) if shape[0] else 0}]"
        return ', '.join(parts)

    def index_dtype(self, idx):
        """An integer dtype that holds the index values idx (int64 most
        often, else a narrower or unsigned one)."""
        r = self.r
        if r.random() < 0.5:
            return 'int64'
        fit = [t for t in ('int8', 'int16', 'int32', 'uint8', 'uint16', 'uint32', 'uint64')
               if all(numpy.iinfo(t).min <= v <= numpy.iinfo(t).max for v in idx)]
        return r.choice(fit) if fit else 'int64'

    def safe_cast_ok(self, src, dt):
        """False where a cast of src's values to dt is undefined in C (NaN,
        infinities or out-of-range floats to integers)."""
        d = numpy.dtype(dt)
        if d.kind not in 'iub' or src.dtype.kind not in 'fc' or d.kind == 'b':
            return True
        v = src.real if src.dtype.kind == 'c' else src
        if not numpy.all(numpy.isfinite(v)):
            return False
        info = numpy.iinfo(d)
        return bool(v.size == 0 or (v.min() > info.min - 1 and v.max() < info.max + 1))

    # -- steps
    def step(self, ns):
        try:
            return self.any_step(ns)
        except Instead as e:
            return e.line

    def any_step(self, ns):
        r = self.r
        if self.queue:
            return self.queue.pop(0)(ns)
        x = self.pick(ns)
        if x is None or r.random() < 0.12:
            return self.create(ns)
        choices = (
            (self.view, 14), (self.basic_read, 8), (self.adv_read, 7), (self.write, 12),
            (self.inplace, 8), (self.ufunc, 14), (self.reduce, 9), (self.scan, 3),
            (self.sort, 4), (self.join, 4), (self.matmul, 3), (self.astype, 5),
            (self.create, 4), (self.misc, 5), (self.wide, 14)) + tuple(
            (getattr(self, f), 60 if self.focus == f else w) for f, w in FAMILIES.items())
        return self.one_of(ns, choices)

    def one_of(self, ns, choices):
        """The step of (step, weight) pairs drawn by weight, run."""
        return self.r.choices([c[0] for c in choices], [c[1] for c in choices])[0](ns)

    def create(self, ns):
        r = self.r
        a = self.new()
        shape = self.shape()
        dt = self.dtype()
        k = r.random()
        n = math.prod(shape)
        if k < 0.55:
            kind = r.choice((0, 0, 1, 2))
            return f"{a} = np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', {kind}))"
        if k < 0.65:
            return f"{a} = np.arange({n}, dtype='{dt if dt != 'bool' else 'int32'}')" \
                   f".reshape({shape})"
        if k < 0.72:
            return f"{a} = np.{r.choice(('zeros', 'ones'))}({shape}, dtype='{dt}')"
        if k < 0.78:
            return f"{a} = np.full({shape}, {self.scalar(dt)}, dtype='{dt}')"
        if k < 0.82:
            return f"{a} = np.linspace({r.randint(-5, 5)}, {r.randint(-5, 20)}, {n})" \
                   f".reshape({shape})"
        if k < 0.86:
            return f"{a} = np.eye({r.randint(0, 9)}, {r.randint(0, 9)}, {r.randint(-3, 3)}, " \
                   f"dtype='{dt}')"
        x = self.pick(ns)
        if x is None:
            return f"{a} = np.zeros({shape}, dtype='{dt}')"
        f = r.choice(('np.zeros_like({x})', 'np.ones_like({x})', 'np.array({x})',
                      'np.asarray({x})', 'np.ascontiguousarray({x})', '{x}.copy()',
                      'np.copy({x})', "np.full_like({x}, 3)", "np.array({x}, copy=False)",
                      "np.asarray({x}, dtype='{dt}')", "np.array({x}, dtype='{dt}')"))
        if 'dtype' in f and not self.safe_cast_ok(ns[x], dt):
            f = 'np.copy({x})'
        return f"{a} = " + f.format(x=x, dt=dt)

    def view(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        nd = v.ndim
        k = r.random()
        if k < 0.25:
            return f"{a} = {x}[{self.basic_index(v.shape)}]"
        if k < 0.35:
            return f"{a} = {x}.T"
        if k < 0.42:
            p = list(range(nd))
            r.shuffle(p)
            return f"{a} = {x}.transpose({tuple(p)})" if nd else f"{a} = {x}.transpose()"
        if k < 0.47 and nd >= 2:
            return f"{a} = np.swapaxes({x}, {r.randrange(nd)}, {r.randrange(-nd, nd)})"
        if k < 0.5 and nd >= 1:
            return f"{a} = np.moveaxis({x}, {r.randrange(nd)}, {r.randrange(-nd, nd)})"
        if k < 0.65:
            return f"{a} = {x}.reshape({self.reshape_to(v.shape)})"
        if k < 0.72:
            if self.avoid and not v.flags.c_contiguous:
                return f"{a} = {x}.flatten()"
            return f"{a} = {x}.ravel()" if r.random() < 0.5 else f"{a} = np.ravel({x})"
        if k < 0.8:
            return f"{a} = np.broadcast_to({x}, {tuple(r.choice((1, 2, 3)) for _ in range(r.randint(0, 2))) + self.bcast_up(v.shape)})"
        if k < 0.85:
            return f"{a} = np.expand_dims({x}, {r.randint(-nd - 1, nd)})"
        if k < 0.9:
            return f"{a} = np.squeeze({x})"
        if k < 0.95 and v.dtype.kind == 'c':
            return f"{a} = {x}.{r.choice(('real', 'imag'))}"
        if k < 0.98:
            return f"{a} = {x}.flatten()"
        return f"{a} = {x}[...]"

    def bcast_up(self, shape):
        return tuple(self.r.choice((2, 3)) if d == 1 and self.r.random() < 0.6 else d
                     for d in shape)

    def reshape_to(self, shape):
        r = self.r
        n = math.prod(shape)
        if r.random() < 0.05:
            return f"({n + 1},)"          # ValueError
        if r.random() < 0.3:
            return '-1'
        # split n into factors
        fs, m = [], n
        for p in (2, 3, 5, 7):
            while m % p == 0 and m > 1:
                fs.append(p)
                m //= p
        if m > 1:
            fs.append(m)
        r.shuffle(fs)
        out = []
        while fs:
            c = r.randint(1, len(fs))
            out.append(math.prod(fs[:c]))
            fs = fs[c:]
        if n == 0:
            out = [0, r.randint(1, 3)]
            r.shuffle(out)
        if out and r.random() < 0.3:
            out[r.randrange(len(out))] = -1
        return repr(tuple(out))

    def basic_read(self, ns):
        x = self.pick(ns)
        return f"{self.new()} = {x}[{self.basic_index(ns[x].shape)}]"

    def adv_read(self, ns):
        x = self.pick(ns)
        a = self.new()
        if self.r.random() < 0.1 and not self.avoid:
            return f"{a} = {x}[np.array({self.r.randint(-1, 2)})]" if ns[x].ndim else \
                f"{a} = {x}[()]"
        return f"{a} = {x}[{self.adv_index(x, ns[x])}]"

    def value_for(self, ns, target, shape):
        """Source for a value to write into `target` of `shape`."""
        r = self.r
        tv = ns[target]
        if r.random() < 0.5 or (self.avoid and shape == ()):
            s = self.scalar()
            return s
        src = self.pick(ns, lambda v: fits(v.shape, shape) or
                        (r.random() < 0.05 and not self.avoid))
        if src is not None and r.random() < 0.5 and self.safe_cast_ok(ns[src], tv.dtype):
            return src
        dt = self.dtype()
        if not self.safe_cast_ok(numpy.zeros(1, dt), tv.dtype):
            dt = tv.dtype.name
        return f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(shape)}, '{dt}', 0))"

    def write(self, ns, x=None):
        """Writes through a name (x, or one picked): slice or index
        assignment, whole-array fill."""
        r = self.r
        x = self.pick_w(ns) if x is None else x
        if x is None:
            return self.create(ns)
        v = ns[x]
        k = r.random()
        if k < 0.45:
            idx = self.basic_index(v.shape)
            try:
                shape = v[eval(f"numpy.s_[{idx}]")].shape
            except Exception:           # noqa: BLE001
                shape = v.shape
        elif k < 0.75:
            idx = self.adv_index(x, v)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    shape = eval(f"v[{idx}]", {'np': numpy, x: v, 'v': v}).shape
            except Exception:           # noqa: BLE001
                shape = v.shape
        else:
            idx = '...'
            shape = v.shape
        val = self.value_for(ns, x, shape)
        if k < 0.75 and k >= 0.45 and val in ns and isinstance(ns[val], numpy.ndarray) and \
                numpy.shares_memory(ns[val], v):
            # deviation 10: NumPy's boolean-mask assignment reads a value that
            # overlaps the target while it writes; ndtile reads it first
            val = f"{val}.copy()"
        if val.startswith('np.nan') or 'inf' in val or val[:1] in '-0123456789' and '.' in val:
            if not self.safe_cast_ok(numpy.asarray(eval(val, {'np': numpy})), v.dtype):
                val = '1'
        elif val.startswith('(') or 'j' in val and 'np.' not in val:
            pass                                 # complex into real: ComplexWarning
        return f"{x}[{idx}] = {val}  # check"

    def inplace(self, ns):
        r = self.r
        x, v, _ = self.arg(ns, write=True)
        op = r.choice(('+=', '-=', '*=', '/=', '//=', '%=', '**=', '&=', '|=', '^=', '<<=',
                       '>>='))
        if r.random() < 0.5:
            y = self.scalar()
        else:
            y = self.pick(ns, lambda w: fits(w.shape, v.shape) or
                          (r.random() < 0.05 and not self.avoid)) or self.scalar()
            if y in ns and r.random() < 0.3:
                y = f"{y}[::-1]" if ns[y].ndim else y
        if op in ('//=', '%=') and v.dtype.kind in 'iu':
            pass        # integer division by zero is 0 in NumPy: tested
        if op == '**=' and v.dtype.kind in 'iu' and y not in ns and y.startswith('-'):
            pass        # ValueError: Integers to negative integer powers
        return f"{x} {op} {y}  # check"

    def operand(self, ns, like):
        """A second operand for `like`: a broadcastable array or a scalar."""
        r = self.r
        v = ns[like]
        if r.random() < 0.35:
            return self.scalar()
        if r.random() < 0.4:
            y = self.pick(ns, lambda w: w.shape == v.shape or w.ndim == 0)
            if y is not None:
                return y
        dt = self.dtype()
        return f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, '{dt}', " \
               f"{r.choice((0, 0, 1, 2))}))"

    def ufunc(self, ns):
        r = self.r
        x = self.pick(ns)
        a = self.new()
        k = r.random()
        if k < 0.3:
            return f"{a} = np.{r.choice(UNARY)}({x})"
        if k < 0.55:
            return f"{a} = np.{r.choice(BINARY)}({x}, {self.operand(ns, x)})"
        if k < 0.75:
            op = r.choice(OPS)
            y = self.operand(ns, x)
            if r.random() < 0.5:
                return f"{a} = {y} {op} {x}"
            return f"{a} = {x} {op} {y}"
        if k < 0.87:
            # a chain for fusion
            y, z = self.operand(ns, x), self.operand(ns, x)
            o1, o2, o3 = (r.choice(('+', '-', '*')) for _ in range(3))
            return f"{a} = ({x} {o1} {y}) {o2} {z} {o3} {x}"
        # out=
        v = ns[x]
        out = self.pick(ns, lambda w: w.shape == v.shape and (w.flags.writeable or
                                                             not self.avoid))
        f = r.choice(BINARY[:14])
        if r.random() < 0.5:
            return f"np.{f}({x}, {self.operand(ns, x)}, out={out})  # check"
        f = r.choice(UNARY[:20])
        if v.dtype.name in ('bool', 'int8', 'uint8') and f not in UNARY[:4]:
            # NumPy runs a float16 loop there and casts to out (no float16 in ndtile)
            return f"{a} = np.{f}({x})"
        if out is not None and not v.flags.c_contiguous and \
                numpy.may_share_memory(v, ns[out]):
            # NumPy 2.4's unary loops get such an in-place call wrong
            # (docs/fuzzing.md, deviations)
            return f"{a} = np.{f}({x})"
        return f"{a} = np.{f}({x}, out={out})  # check"

    def reduce(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        f = r.choice(REDUCE)
        kw = []
        ax = self.axis(v.ndim, allow_tuple=f not in ('argmax', 'argmin'))
        if ax is not None or r.random() < 0.3:
            kw.append(f"axis={ax}")
        if f not in ('argmax', 'argmin') and r.random() < 0.3:
            kw.append("keepdims=True")
        elif f in ('argmax', 'argmin') and r.random() < 0.2:
            kw.append("keepdims=True")
        if f in ('sum', 'prod', 'mean', 'std', 'var') and r.random() < 0.25:
            dts = ('int64', 'uint8', 'float32', 'float64', 'complex128', 'int32')
            if self.avoid and f in ('mean', 'std', 'var'):
                dts = ('float32', 'float64')
            kw.append(f"dtype='{r.choice(dts)}'")
        if f in ('sum', 'prod', 'max', 'min') and r.random() < 0.25:
            inits = ('0', '1', '5', '-3', '2.5')
            if self.avoid:
                inits = {'b': (), 'u': ('0', '1', '5'), 'i': ('0', '1', '5', '-3')}.get(
                    v.dtype.kind, inits)
            if inits and not any(k.startswith('dtype') for k in kw):
                kw.append(f"initial={r.choice(inits)}")
        if f in ('sum', 'prod', 'max', 'min', 'mean', 'any', 'all') and r.random() < 0.2:
            w = f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, 'bool'))"
            kw.append(f"where={w}")
        if f in ('std', 'var') and r.random() < 0.3:
            kw.append(f"ddof={r.randint(0, 2)}")
        if r.random() < 0.5:
            return f"{a} = {x}.{f}({', '.join(kw)})"
        return f"{a} = np.{f}({', '.join([x] + kw)})"

    def scan(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        f = r.choice(('cumsum', 'cumprod', 'cumsum', 'diff'))
        kw = []
        if f == 'diff':
            if v.ndim == 0:
                return f"{a} = np.diff({x})"
            return f"{a} = np.diff({x}, n={r.randint(0, 2)}, axis={r.randrange(-v.ndim, v.ndim)})"
        ax = self.axis(v.ndim, allow_tuple=False)
        if ax is not None:
            kw.append(f"axis={ax}")
        if r.random() < 0.3:
            kw.append(f"dtype='{r.choice(('int64', 'float32', 'float64', 'int16'))}'")
        return f"{a} = np.{f}({', '.join([x] + kw)})" if r.random() < 0.5 else \
            f"{a} = {x}.{f}({', '.join(kw)})"

    def sort(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        k = r.random()
        ax = -1 if v.ndim and r.random() < 0.5 else (r.randrange(-v.ndim, v.ndim) if v.ndim
                                                      else None)
        if k < 0.25:
            return f"{a} = np.sort({x}, axis={ax})"
        if k < 0.4:
            return f"{a} = np.argsort({x}, axis={ax}, kind='stable')"
        if k < 0.5 and v.ndim and (v.flags.writeable or not self.avoid):
            return f"{x}.sort(axis={ax})  # check"
        if k < 0.65 and v.ndim and v.shape[ax]:
            kth = r.randrange(-v.shape[ax], v.shape[ax])
            return f"{a} = np.take(np.partition({x}, {kth}, axis={ax}), {kth}, axis={ax})"
        if k < 0.72 and v.ndim and v.shape[ax]:
            kth = r.randrange(v.shape[ax])
            return f"{a} = np.take(np.take_along_axis({x}, np.argpartition({x}, {kth}, " \
                   f"axis={ax}), axis={ax}), {kth}, axis={ax})"
        if k < 0.9 and v.dtype.kind != 'c':
            s = self.new()
            side = r.choice(("'left'", "'right'"))
            return f"{s} = np.sort({x}.ravel()); {a} = np.searchsorted({s}, " \
                   f"{self.operand(ns, x) if r.random() < 0.5 else self.scalar()}, side={side})"
        return f"{a} = np.unique({x})"

    def join(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        k = r.random()
        others = [y for y in names_of(ns) if isinstance(ns[y], numpy.ndarray) and
                  ns[y].ndim == v.ndim and y != x]
        if k < 0.4 and v.ndim:
            ax = r.randrange(-v.ndim, v.ndim)
            same = [y for y in others if all(p == q for i, (p, q) in
                                             enumerate(zip(ns[y].shape, v.shape))
                                             if i != ax % v.ndim)]
            pool = same if same and r.random() < 0.9 else others
            ys = [x] + r.sample(pool, min(len(pool), r.randint(0, 2)))
            if r.random() < 0.3:
                ys.append(f"{x}[::-1]")
            return f"{a} = np.concatenate([{', '.join(ys)}], axis={ax})"
        if k < 0.55:
            same = [y for y in others if ns[y].shape == v.shape]
            ys = [x] + same[:r.randint(0, 2)]
            return f"{a} = np.{r.choice(('stack', 'vstack', 'hstack'))}([{', '.join(ys)}]" + \
                (f", axis={r.randint(-v.ndim - 1, v.ndim)})" if r.random() < 0.3 else ")")
        if k < 0.75 and v.ndim:
            ax = r.randrange(v.ndim)
            n = r.randint(1, 4)
            f = 'array_split' if v.shape[ax] % n and r.random() < 0.7 else 'split'
            return f"{a} = np.{f}({x}, {n}, axis={ax})[{r.randrange(n)}]"
        if k < 0.9:
            c = self.pick(ns, lambda w: w.dtype.kind == 'b') or f"{x} > 0"
            return f"{a} = np.where({c}, {x}, {self.operand(ns, x)})"
        if r.random() < 0.5 and (v.ndim or not self.avoid):
            return f"{a} = np.flip({x})"
        return f"{a} = np.roll({x}, {r.randint(-3, 3)})"

    def matmul(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.dtype.kind != 'b' or r.random() < 0.2)
        if v.ndim == 0:
            return f"{a} = {x} @ {x}"     # ValueError
        kdim = v.shape[-1]
        m = r.choice((1, 2, 3, 5, 64, 300)) if r.random() < 0.9 else 0
        if v.size > 300_000:
            m = r.choice((1, 2, 3))
        # the second operand and the result stay below a few million elements
        m = min(m, max(1, 1_000_000 // max(kdim, 1)),
                max(1, 2_000_000 // max(1, v.size // max(kdim, 1))))
        shape = (kdim,) if r.random() < 0.2 else (kdim, m)
        if v.ndim >= 3 and r.random() < 0.5:
            shape = v.shape[:-2] + (kdim, m)
        dt = v.dtype.name if r.random() < 0.6 else self.dtype(NUMERIC)
        y = f"np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', 0))"
        f = r.choice(('{x} @ {y}', 'np.matmul({x}, {y})', 'np.dot({x}, {y})'))
        if f.startswith('np.dot') and v.ndim > 2:
            f = '{x} @ {y}'
        return f"{a} = " + f.format(x=x, y=y)

    def astype(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        dt = self.dtype()
        if not self.safe_cast_ok(v, dt):
            dt = 'float64' if v.dtype.kind == 'f' else v.dtype.name
        if r.random() < 0.2:
            return f"{a} = {x}.astype('{v.dtype.name}', copy=False)"
        return f"{a} = {x}.astype('{dt}')"

    def misc(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        k = r.random()
        if k < 0.2:
            return f"{a} = np.clip({x}, {r.randint(-3, 0)}, {r.randint(0, 4)})"
        if k < 0.3:
            return f"{a} = {x}.item()" if v.size == 1 else f"{a} = {x}.size"
        if k < 0.4 and v.ndim:
            return f"{a} = np.nonzero({x})[{r.randrange(v.ndim)}]"
        if k < 0.5:
            return f"{a} = np.count_nonzero({x}" + (f", axis={self.axis(v.ndim)})" if v.ndim
                                                    else ")")
        if k < 0.6 and v.ndim:
            return f"{a} = np.repeat({x}, {r.randint(0, 3)}, axis={r.randrange(v.ndim)})"
        if k < 0.7:
            return f"{a} = np.tile({x}, {r.randint(1, 2)})"
        if k < 0.8:
            return f"{a} = {x}.tolist() == {x}.tolist()"
        if k < 0.9:
            return f"{a} = np.array_equal({x}, {self.operand(ns, x)})"
        return f"{a} = np.{r.choice(('isclose', 'allclose'))}({x}, {self.operand(ns, x)})" \
            if v.dtype.kind != 'b' else f"{a} = np.abs({x})"

    # -- steps beyond the core set (docs/fuzzing.md, "Wider steps"): NaN
    # functions, order statistics, index functions, ufunc methods, linear
    # algebra and FFTs, padding, counting, integer edge cases, casting
    # modes, copyto and writes through fresh views
    # -- write patterns (session 24): fills in slices and blocks, in-place
    # work on overlapping views, writes through views of every kind, views
    # made before a write and copies taken before it
    def fill_count(self, dt):
        """An element count: more than one 2 MiB tile in bytes (about one
        in three, at most two per program, where the setting allows) or
        small."""
        r = self.r
        if r.random() < 0.35 and self.big < 2:
            self.big += 1
            n = int(r.uniform(2.1, 4.5) * (1 << 20)) // numpy.dtype(dt).itemsize
            return max(1000, min(n, self.big_max, 1_200_000))
        return r.choice((12, 30, 64, 100, 257, 1000, 4099))

    def fill_shape(self, dt):
        """A shape for a filled array: more than one 2 MiB tile in bytes
        (about one in three, where the setting allows) or small."""
        r = self.r
        n = self.fill_count(dt)
        if r.random() < 0.5:
            return (n,)
        rows = r.choice((2, 3, 8, 16, 50)) if n > 100 else r.choice((2, 3, 4, 6))
        if r.random() < 0.4:
            return (max(1, n // rows), rows)        # many short rows
        return (rows, max(1, n // rows))

    def fill_value(self, src, sl, i):
        """A value computed from src[sl] (exact for small data), i the loop
        variable or a number."""
        r = self.r
        s = f"{src}[{sl}]"
        return r.choice((s, f"{s} * 2", f"{s} + {i}", f"{s} - {s}[::-1]" if ',' not in sl
                         else f"-{s}", f"np.maximum({s}, {i})", f"np.abs({s})",
                         f"{i} + 1", f"{s}.astype({src}.dtype)"))

    def fill(self, ns):
        """A fresh array (or a view of one) filled in slices, blocks, rows,
        columns or a negative stride, then read whole, reduced or chained
        through ufuncs (fused at default settings); a view made before the
        fill and a copy taken before it are compared too."""
        r = self.r
        dt = self.dtype(NUMERIC) if r.random() < 0.95 else 'bool'
        shape = self.fill_shape(dt)
        t = self.new()
        init = r.random()
        if init < 0.45:
            first = f"{t} = np.zeros({shape}, dtype='{dt}')"
        elif init < 0.65:
            v = r.choice((1, 3, -2) if numpy.dtype(dt).kind != 'u' else (1, 3))
            first = f"{t} = np.full({shape}, {v}, dtype='{dt}')"
        elif init < 0.75:
            first = f"{t} = np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', 0))"
        elif init < 0.85:
            # a deferred result (not computed yet where tasks are deferred)
            first = f"{t} = np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', 0)) " \
                    f"{r.choice(('* 1', '+ 0', '* 2'))}"
        else:
            # the target is a view: the fill writes through it into its base
            # (a named base: the fuzzer makes an unshared strided NumPy
            # result C-ordered, deviation 1, so `np.zeros(n)[::-2].ravel()`
            # would be a view in NumPy and a copy in ndtile)
            big = tuple(d * 2 for d in shape[:1]) + shape[1:]
            base = self.new()
            first = f"{base} = np.zeros({big}, dtype='{dt}')"
            view_of = f"{t} = {base}[{r.choice(('::2', '1::2', '::-2'))}]"
        s = self.new()
        sdt = dt if r.random() < 0.6 else self.dtype(NUMERIC)
        if numpy.dtype(dt).kind in 'iu' and numpy.dtype(sdt).kind in 'fc':
            # a float value written into an integer array must be in range
            # (a negative or too large one is undefined in C, and a
            # recurrence grows them: 4294967297.5 into uint32 is 1 in NumPy,
            # 0 in ndtile; small_tiles seed 54501665)
            sdt = dt
        lines = [f"{s} = np.asarray(data({r.randrange(1 << 30)}, {shape}, '{sdt}', 0))"]
        if init >= 0.85:
            lines.insert(0, view_of)
        if r.random() < 0.3:
            # the source is itself made in blocks or reversed
            lines.append(f"{s} = {s}[::-1] * 1" if r.random() < 0.5 else f"{s} = {s} + {s}[::-1]")
        view = copy = None
        if r.random() < 0.5:
            view = self.new()
            lines.append(f"{view} = {t}[{r.choice(('1:', '::-1', '::3', '-5:', ':7'))}]")
        if r.random() < 0.4:
            copy = self.new()
            lines.append(f"{copy} = {t}.copy()" if r.random() < 0.5 else
                         f"{copy} = np.array({t}[::2])")
        if r.random() < 0.35:
            # a result computed from the target before the fill: it must not
            # see the writes (deferred work reads the old values)
            lines.append(f"{self.new()} = " + r.choice((f"({t} + 1) * {t}", f"{t}.sum()",
                                                         f"{t}[::-1] * 2", f"{t}.astype('float64')",
                                                         f"np.cumsum({t}, axis=0)")))
        n0 = shape[0]
        p = r.random()
        if p < 0.12 and n0 >= 2:
            # a recurrence: each block from the one before it
            k = r.randint(2, min(n0, 10))
            m = n0 // k
            lines.append(f"for i in range(1, {k}): {t}[i * {m}:(i + 1) * {m}] = "
                         f"{t}[(i - 1) * {m}:i * {m}] + {s}[i * {m}:(i + 1) * {m}]")
        elif len(shape) == 1 or p < 0.35:
            k = r.randint(2, 12)
            m = -(-n0 // k)
            if r.random() < 0.3:
                m += r.choice((-1, 1)) if m > 1 else 1     # a short or ragged last block
            sl = f"i * {m}:(i + 1) * {m}"
            if len(shape) == 2 and r.random() < 0.5:
                c = shape[1] // 2
                sl += f", {c}:" if r.random() < 0.5 else ", ::-1"
            k = -(-n0 // m)
            lines.append(f"for i in range({k}): {t}[{sl}] = {self.fill_value(s, sl, 'i')}")
        elif p < 0.5:
            # (every column where there are at most 500: many small writes
            # pending at once)
            c = shape[1] if shape[1] <= 500 and r.random() < 0.4 else min(shape[1], 16)
            lines.append(f"for j in range({c}): {t}[:, j] = {self.fill_value(s, ':, j', 'j')}")
        elif p < 0.65:
            rows = n0 if n0 <= 1000 and r.random() < 0.4 else min(n0, 16)
            src = r.choice((f"{s}[i]", f"{s}[{n0 - 1} - i]", f"{s}[i] * 3 - i",
                            f"{s}[i, ::-1]"))
            lines.append(f"for i in range({rows}): {t}[i] = {src}")
        elif p < 0.8:
            k = r.choice((1, 2, 3))
            sl = f"::-{k}" if len(shape) == 1 or r.random() < 0.5 else f":, ::-{k}"
            other = sl.replace('-', '') if r.random() < 0.5 else sl
            lines.append(f"{t}[{sl}] = {self.fill_value(s, other, 2)}")
        else:
            # 2-d blocks in a double loop
            bi, bj = r.choice((2, 3)), r.choice((2, 4))
            mi, mj = -(-n0 // bi), -(-shape[1] // bj)
            lines.append(f"for q in range({bi * bj}): i, j = divmod(q, {bj}); "
                         f"{t}[i * {mi}:(i + 1) * {mi}, j * {mj}:(j + 1) * {mj}] = "
                         f"{s}[i * {mi}:(i + 1) * {mi}, j * {mj}:(j + 1) * {mj}] + i - j")
        if r.random() < 0.3:
            lines[-1] += "  # check"
        reads = [f"{{a}} = {t}.sum()", f"{{a}} = {t}.sum(axis=0)", f"{{a}} = {t}.max()",
                 f"{{a}} = {t}.min(axis=-1)", f"{{a}} = np.abs({t} * 2 - 1) + {t}",
                 f"{{a}} = ({t} + 1) * {t} - {t}[::-1]", f"{{a}} = np.maximum({t}, 0) * 3 + {s}",
                 f"{{a}} = {t}.copy()", f"{{a}} = {t}[::-1].ravel()",
                 f"{{a}} = np.cumsum({t}, axis=0)", f"{{a}} = {t} == {s}",
                 f"{{a}} = ({t} - {s}).any()", f"{{a}} = np.count_nonzero({t})"]
        if view:
            reads += [f"{{a}} = {view} * 2 + 1", f"{{a}} = {view}.sum()"]
        for _ in range(r.randint(1, 3)):
            lines.append(r.choice(reads).format(a=self.new()))
            if r.random() < 0.25:
                lines.append(f"{t} += 1" if dt != 'bool' else f"{t} |= True")
        lines[-1] += "  # check" if not lines[-1].endswith('# check') else ''
        for ln in lines:
            self.queue.append(lambda ns, ln=ln: ln)
        return first

    def overlap(self, ns):
        """In-place work whose output overlaps an input: NumPy computes as if
        the inputs were copied first (ufuncs, assignment); ufunc.at and
        in-place operators on repeated fancy indices apply once per index
        (ufunc.at) or once per element (a[idx] += 1 buffers)."""
        r = self.r
        x, v, _ = self.arg(ns, lambda v: v.flags.writeable and v.ndim >= 1 and v.shape[0] >= 2
                           and v.dtype.kind != 'b', instead=self.fill)
        n = v.shape[0]
        uf = r.choice(('add', 'subtract', 'multiply', 'maximum', 'minimum'))
        k = r.random()
        if k < 0.15:
            return f"{x}[1:] {r.choice(('+=', '-=', '*='))} {x}[:-1]  # check"
        if k < 0.25:
            return f"{x}[:-1] += {x}[1:]  # check"
        if k < 0.4:
            return f"np.{uf}({x}[:-1:2], {x}[1::2], out={x}[:-1:2])  # check"
        if k < 0.5:
            return f"np.{uf}({x}, {x}[::-1], out={x})  # check"
        if k < 0.58:
            m = n // 2
            return f"np.{uf}({x}[:{m}], {x}[{n - m}:][::-1], out={x}[{n // 4}:{n // 4 + m}])" \
                   f"  # check"
        if k < 0.66:
            return r.choice((f"{x}[...] = {x}[::-1]  # check", f"{x}[1:] = {x}[:-1]  # check",
                             f"{x}[:-1] = {x}[1:]  # check",
                             f"{x}[::2] = {x}[{'1::2' if n % 2 == 0 else '::-2'}]  # check"))
        if k < 0.74 and v.ndim >= 2 and v.shape[0] == v.shape[1]:
            return f"{x} {r.choice(('+=', '-='))} {x}.{r.choice(('T', 'swapaxes(0, 1)'))}  # check"
        if k < 0.74:
            return f"{x}[::-1] += {x}  # check"
        idx = self.int_list(n, r.randint(2, 6), lo=0)
        idx[-1] = idx[0]
        if k < 0.84:
            return f"{x}[{idx}] {r.choice(('+=', '-=', '*='))} {r.choice((1, 2, -1))}  # check"
        if k < 0.92:
            w = r.choice((x, f"{x}[::-1]", f"{x}[1:]"))
            return f"np.{uf}.at({w}, {[i for i in idx if i < n - 1]}, {r.choice((1, 3))})  # check"
        return f"{x}[::2][{[i // 2 for i in idx]}] += 1  # check"

    def view_setitem(self, ns):
        """Writes through a view: bool masks and fancy indices on strided
        views, putmask/place/copyto(where=) on views, and through .T,
        reshape, .flat, .real and .imag."""
        r = self.r
        x, v, _ = self.arg(ns, lambda v: v.flags.writeable and v.ndim >= 1 and v.size >= 2,
                           instead=self.fill)
        ints = v.dtype.kind in 'iub'
        val = self.scalar_int() if ints else r.choice(('1.5', '-2.0', '0.25', '7'))
        vw = r.choice((f"{x}[::2]", f"{x}[::-1]", f"{x}[1:]") +
                      ((f"{x}[:, ::-2]", f"{x}.T", f"{x}[::-1, 1:]") if v.ndim >= 2 else ()))
        vv = eval(vw, {x: v})
        if vv.size == 0:
            return f"{x}[...] = {val}  # check"
        k = r.random()
        cmp = f"{vw} > 0" if v.dtype.kind != 'c' else f"{vw}.real > 0"
        if v.dtype.kind == 'b':
            cmp = vw
        if k < 0.15:
            return f"{vw}[{cmp}] = {val}  # check"
        if k < 0.25:
            d = vv.shape[0]
            idx = self.int_list(d, r.randint(1, 4), lo=0)
            return f"{vw}[{idx}] = {val}  # check"
        if k < 0.35:
            return f"np.putmask({vw}, {cmp}, {r.choice((val, f'[{val}, 0]'))})  # check"
        if k < 0.45:
            return f"np.place({vw}, {cmp}, [{val}, 1])  # check"
        if k < 0.55:
            return f"np.copyto({vw}, {vw}[::-1].copy(), where={cmp})  # check"
        if k < 0.65:
            return f"{x}.T[{r.randrange(v.shape[-1])}] = {val}  # check"
        if k < 0.73:
            return f"{x}.reshape(-1)[::{r.choice((2, 3))}] = {val}  # check"
        if k < 0.85:
            f = r.choice((f"{x}.flat[{r.randrange(v.size)}]", f"{x}.flat[::{r.choice((2, 5))}]",
                          f"{x}.flat[{self.int_list(v.size, 3, lo=0)}]", f"{x}.flat"))
            if (not f.endswith(']') or '::' in f) and r.random() < 0.5:
                # the iterator takes a value's elements cyclically
                val = r.choice((f"[{val}, 0]", "[1, 2, 3]", "[]", "np.arange(6).reshape((2, 3))"))
            return f"{f} = {val}  # check"
        part = r.choice(('real', 'imag'))
        if v.dtype.kind != 'c':
            return f"{x}.real[{r.choice(('::2', '...', '1:'))}] = {val}  # check"
        return f"{x}.{part}[{r.choice(('::2', '...', '1:', '::-1'))}] = {val}  # check"

    def before_after(self, ns):
        """A view and a copy taken before a write: the view sees it, the copy
        does not."""
        r = self.r
        x, v, a = self.arg(ns, lambda v: v.flags.writeable and v.ndim >= 1, instead=self.fill)
        b = self.new()
        sl = self.basic_index(v.shape)
        vw = r.choice((f"{x}[{sl}]", f"{x}.T", f"{x}.reshape(-1)" if v.flags.c_contiguous
                       else f"{x}[...]", f"{x}[::-1]", f"{x}.view()", f"{x}.ravel()",
                       f"np.asarray({x})", f"{x}.real"))
        cp = r.choice((f"{x}.copy()", f"np.array({x})", f"{x}[::-1].copy()", f"{x} + 0",
                       f"{x}.astype({x}.dtype)", f"np.copy({x})", f"{x}.flatten()",
                       f"np.ascontiguousarray({x}[::-1])", f"{x}[[0, -1]]" if v.shape[0]
                       else f"{x}.copy()"))
        def then(ns):
            if not isinstance(ns.get(x), numpy.ndarray):
                return self.create(ns)
            k = r.random()
            if k < 0.5:
                return self.write(ns, x)
            if k < 0.75:
                return f"{x} {r.choice(('+=', '*=', '-='))} {r.choice((1, 2, 3))}  # check"
            return f"{x}[...] = {x}[::-1]  # check" if ns[x].ndim else f"{x}[...] = 5  # check"
        self.queue += [lambda ns: f"{b} = {cp}", then,
                       lambda ns: f"{self.new()} = {a}.sum() * 1  # check"
                       if isinstance(ns.get(a), numpy.ndarray) else self.create(ns)]
        return f"{a} = {vw}"

    def writes(self, ns):
        r = self.r
        return r.choices((self.fill, self.overlap, self.view_setitem, self.before_after),
                         (4, 3, 3, 2))[0](ns)

    # -- mixed layouts and arithmetic edges (session 27): operands of
    # different tile layouts (a transposed or reshaped view against a fresh
    # array), chains of negative-step views written then read while their
    # base is still deferred, masked assignments between reductions,
    # out= aliasing an input with other strides, integer wraparound inside
    # fused chains, and casting='unsafe' with dtype= and out=
    def mix(self, ns):
        r = self.r
        return r.choices((self.mix_layouts, self.mix_chain, self.mix_mask_reduce,
                          self.mix_out_alias, self.mix_wrap, self.mix_steps),
                         (4, 3, 3, 3, 4, 3))[0](ns)

    def mix_steps(self, ns):
        """An array filled block by block over separate lines (not a
        one-line loop), each block from the source or from blocks written
        before, with reads of the half-filled array between the writes."""
        r = self.r
        dt = self.dtype(NUMERIC)
        shape = self.fill_shape(dt)
        n0 = shape[0]
        t, src = self.new(), self.new()
        lines = [f"{t} = np.{r.choice(('zeros', 'ones'))}({shape}, dtype='{dt}')",
                 self.mix_fresh(src, shape, dt)]
        k = r.randint(2, min(6, max(2, n0)))
        m = -(-n0 // k)
        col = ", ::-1" if len(shape) == 2 and r.random() < 0.3 else ''
        for i in range(k):
            blk = f"{i * m}:{(i + 1) * m}"
            if i and r.random() < 0.4:
                prev = f"{(i - 1) * m}:{i * m}"
                # the block before, as long as this one (the last may be short)
                ln = min(m, n0 - i * m)
                val = f"{t}[{prev}][:{ln}{col}] * 2 - {src}[{blk}]"
            else:
                val = r.choice((f"{src}[{blk}]", f"{src}[{blk}{col}] + {i}",
                                f"{src}[::-1][{blk}]"))
            lines.append(f"{t}[{blk}] = {val}")
            if r.random() < 0.5:
                lines.append(f"{self.new()} = " + r.choice((
                    f"{t}.sum(axis=0)", f"{t}[::-1].cumsum(axis=0)", f"{t}.max()",
                    f"{t}[{blk}] + {t}[::-1][{blk}]", f"np.count_nonzero({t})",
                    f"{t}.copy()")))
        lines[-1] += '  # check'
        lines.append(f"{self.new()} = ({t} - {src}).sum()  # check")
        return self.mix_queue(lines)

    def mix_shape(self, dt, square=False):
        """A 2-d shape larger than one 2 MiB tile (about one in three, as
        the setting allows) or a small one; square where asked."""
        r = self.r
        n = self.fill_count(dt)
        if square:
            s = max(2, int(math.isqrt(n)))
            return (s, s)
        rows = r.choice((2, 3, 7, 16, 50, 333)) if n > 400 else r.choice((2, 3, 4, 6))
        return (max(1, n // rows), rows) if r.random() < 0.5 else (rows, max(1, n // rows))

    def mix_fresh(self, name, shape, dt):
        """A line making `name`: data, sometimes a deferred result of it."""
        r = self.r
        s = f"{name} = np.asarray(data({r.randrange(1 << 30)}, {tuple(shape)}, '{dt}', 0))"
        if r.random() < 0.4:
            s += f" {r.choice(('* 1', '+ 0', '* 2', '- 1'))}"
        return s

    def mix_queue(self, lines):
        for ln in lines[1:]:
            self.queue.append(lambda ns, ln=ln: ln)
        return lines[0]

    def mix_layouts(self, ns):
        """Operands of different tile layouts: x (R, C) against y (C, R)
        through y.T, reshapes of views, reversed axes, out= a transposed
        view; read whole and reduced."""
        r = self.r
        dt = self.dtype(NUMERIC)
        dt2 = dt if r.random() < 0.6 else self.dtype(NUMERIC)
        square = r.random() < 0.3
        R, C = self.mix_shape(dt, square)
        x, y = self.new(), self.new()
        lines = [self.mix_fresh(x, (R, C), dt), self.mix_fresh(y, (C, R), dt2)]
        n = R * C
        k = max(d for d in (1, 2, 3, 4, 5, 6, 7, 8) if n % d == 0)
        forms = [f"{x} + {y}.T", f"{x}[::-1] * {y}.T[:, ::-1]", f"({x}.T - {y}) * 2",
                 f"{x}.reshape({C}, {R}) + {y}", f"{x}.reshape(-1)[::-1].reshape({R}, {C}) - {x}",
                 f"{x}.T.reshape(-1) + {y}.reshape(-1)", f"np.maximum({x}.T, {y})",
                 f"{x}.reshape({n // k}, {k}) - {y}.T.reshape({n // k}, {k})",
                 f"({x}[:, 1:] + {y}.T[:, :-1]).T", f"{x}.T[::-1] + {y}[:, ::-1]",
                 f"{x} * ({y}.T + 1) - {x}[::-1, ::-1]", f"{x}.T.copy() + {y}",
                 f"np.where({x} > 0, {y}.T, {x})"]
        for _ in range(r.randint(1, 3)):
            a = self.new()
            lines.append(f"{a} = {r.choice(forms)}")
            red = r.random()
            if red < 0.3:
                lines.append(f"{self.new()} = {a}.sum(axis={r.choice((0, -1))})")
            elif red < 0.45:
                lines.append(f"{self.new()} = {a}.max()")
        w = r.random()
        if w < 0.2:
            lines.append(f"{x} += {y}.T  # check")
        elif w < 0.35:
            lines.append(f"np.add({x}.T, {y}, out={y})  # check")
        elif w < 0.5:
            lines.append(f"np.subtract({y}, 1, out={x}.T)  # check")
        elif w < 0.6:
            lines.append(f"{x}.T[...] = {y}  # check")
        elif w < 0.7 and square:
            lines.append(f"{x} {r.choice(('+=', '-='))} {x}.T  # check")
        elif w < 0.8 and square:
            lines.append(f"np.add({x}, {x}.T, out={x}.T)  # check")
        elif w < 0.9:
            lines.append(f"{x}.reshape({C}, {R})[::2] = {y}[::2]  # check")
        lines.append(f"{self.new()} = {x}.sum(axis=0)  # check")
        return self.mix_queue(lines)

    def mix_chain(self, ns):
        """Chains of views with negative steps (a view of a view of a
        deferred result) written, then the base and the views read."""
        r = self.r
        dt = self.dtype(NUMERIC)
        two = r.random() < 0.4
        shape = self.mix_shape(dt) if two else (max(2, math.prod(self.fill_shape(dt))),)
        t, v, w = self.new(), self.new(), self.new()
        lines = [self.mix_fresh(t, shape, dt)]
        if two:
            lines.append(f"{v} = {t}[::-1, {r.choice(('::2', '::-2', '1:', '::-1'))}]")
            lines.append(f"{w} = {v}{r.choice(('[::-3]', '.T[::-1]', '[1::2, ::-1]', '[:, ::-2].T'))}")
        else:
            lines.append(f"{v} = {t}[{r.choice(('::-1', '::-2', '5:', '::3'))}]"
                         f"[{r.choice(('1::2', '::-1', '::-3', ':-1'))}]")
            lines.append(f"{w} = {v}[{r.choice(('::-1', '::2', '1:', '::-5'))}]")
        one = 'True' if dt == 'bool' else '1'
        writes = [f"{w}[...] = {w} * 2 + {one}" if dt != 'bool' else f"{w}[...] = ~{w}",
                  f"{w} += {one}" if dt != 'bool' else f"{w} |= True",
                  f"{w}[...] = {w}[::-1]", f"{v}[::-1] = {v}",
                  f"{w}[{w} > 0] = 0" if dt not in ('bool',) and not dt.startswith('c')
                  else f"{w}[...] = 0",
                  f"np.copyto({w}, {w}[::-1].copy(), where={w} != 0)"]
        reads = [f"{t}.sum()", f"{v}.max()", f"({t}[::-1] - {t}).sum(axis=0)", f"{w} * 3",
                 f"{v}.copy()", f"np.cumsum({t}, axis=0)", f"{t}[::-1].ravel()",
                 f"({v} + 1) * {w}.sum()"]
        if dt.startswith('c'):
            reads = [s for s in reads if 'max' not in s]
        for _ in range(r.randint(1, 3)):
            lines.append(r.choice(writes))
            if r.random() < 0.6:
                lines.append(f"{self.new()} = {r.choice(reads)}")
        lines[-1] += '  # check'
        return self.mix_queue(lines)

    def mix_mask_reduce(self, ns):
        """Masked assignments interleaved with reductions of the same array
        (a reduction's result as the mask's threshold or the value)."""
        r = self.r
        dt = r.choice(('int8', 'int16', 'int32', 'int64', 'uint8', 'uint32', 'float32',
                       'float64'))
        shape = self.mix_shape(dt) if r.random() < 0.5 else self.fill_shape(dt)
        t = self.new()
        lines = [self.mix_fresh(t, shape, dt)]
        for _ in range(r.randint(2, 4)):
            k = r.random()
            s = self.new()
            if k < 0.2:
                lines.append(f"{s} = {t}.max()")
                lines.append(f"{t}[{t} == {s}] = {r.choice(('0', '1', f'{s} // 2'))}")
            elif k < 0.4:
                lines.append(f"{s} = {t}.sum(axis=0)")
                if len(shape) == 2:
                    lines.append(f"{t}[:, {s} > 0] {r.choice(('+=', '-=', '*='))} 1")
                else:
                    lines.append(f"{t}[{t} > 0] = {s} % 5")
            elif k < 0.55:
                lines.append(f"{s} = {t} > {r.choice(('0', '2', '-1'))}")
                lines.append(f"{t}[{s}] = {t}[{s}][::-1]")
            elif k < 0.7:
                lines.append(f"{s} = {t}.min(axis=-1, keepdims=True)")
                lines.append(f"np.copyto({t}, {s}, where={t} < 0)")
            elif k < 0.85:
                lines.append(f"{s} = np.count_nonzero({t} > 1)")
                lines.append(f"{t}[{t} > 1] = np.arange({s}) % 7")
            else:
                lines.append(f"{t}[::-1][{t}[::-1] % 3 == 0] += 2")
                lines.append(f"{s} = {t}.cumsum(axis=0)")
            if r.random() < 0.3:
                lines[-1] += '  # check'
        lines.append(f"{self.new()} = {t}.sum()  # check")
        return self.mix_queue(lines)

    def mix_out_alias(self, ns):
        """out= an input, or a window of it, with other strides (NumPy
        computes as if the inputs were copied first)."""
        r = self.r
        dt = self.dtype(NUMERIC)
        uf = r.choice(('add', 'subtract', 'multiply', 'maximum', 'minimum'))
        if r.random() < 0.5:
            shape = self.fill_shape(dt)[:1]
            n = shape[0]
            t = self.new()
            h = n // 2
            outs = [f"np.{uf}({t}[::2], {t}[1::2], out={t}[:{h}])" if n % 2 == 0 else
                    f"np.{uf}({t}[:-1:2], {t}[1::2], out={t}[:{h}])",
                    f"np.{uf}({t}[:{h}], {t}[{n - h}:], out={t}[{n - 2 * h}::2][:{h}])"
                    if n >= 4 else f"np.{uf}({t}, {t}, out={t})",
                    f"np.{uf}({t}[::-1], {t}, out={t}[::-1])",
                    f"np.{uf}({t}[1:], {t}[:-1], out={t}[:-1])",
                    f"np.{uf}({t}[::2], 2, out={t}[{h}:][:{(n + 1) // 2}])"
                    if (n + 1) // 2 <= n - h else f"np.{uf}({t}, 2, out={t})",
                    f"{t}[:{h}] = {t}[::2][:{h}] * 2"]
        else:
            shape = self.mix_shape(dt, square=r.random() < 0.5)
            R, C = shape
            t = self.new()
            outs = [f"np.{uf}({t}[:, :{2 * (C // 2)}:2], {t}[:, 1::2], out={t}[:, :{C // 2}])",
                    f"np.{uf}({t}[1:], {t}[:-1], out={t}[:-1])",
                    f"np.{uf}({t}[::-1], {t}[:, ::-1], out={t})",
                    f"np.{uf}({t}.T, 1, out={t}.T)"]
            if R == C:
                outs += [f"np.{uf}({t}, {t}.T, out={t})", f"np.{uf}({t}.T, {t}, out={t}.T)",
                         f"np.{uf}({t}[::-1].T, {t}, out={t}[:, ::-1])"]
        lines = [self.mix_fresh(t, shape, dt)]
        if r.random() < 0.4:
            lines.append(f"{self.new()} = {t}[::-1]")
        lines.append(r.choice(outs) + '  # check')
        if r.random() < 0.5:
            lines.append(r.choice(outs) + '  # check')
        lines.append(f"{self.new()} = {t}.sum(axis=0)  # check")
        return self.mix_queue(lines)

    def mix_wrap(self, ns):
        """Integer wraparound (inside fused chains too: an intermediate that
        wraps before a division, a shift, a comparison or a max) and
        casting='unsafe' with dtype= and out=."""
        r = self.r
        dt = r.choice(('int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'))
        shape = self.fill_shape(dt)
        x, y = self.new(), self.new()
        kind = r.choice((0, 1, 1))
        lines = [f"{x} = np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', {kind}))",
                 f"{y} = np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', {kind}))"]
        small = r.choice(('int8', 'uint8', 'int16', 'uint16', 'int32'))
        fl = r.choice(('float32', 'float64'))
        forms = [f"({x} * {x}) // 3", f"({x} + {y}) > 0", f"np.maximum({x} * 2, {y})",
                 f"({x} + 100) >> 2", f"({x} * {x}) % 7", f"({x} - {y}) < {x}",
                 f"(({x} * 3 + {y}) * {x} - 7) // 5", f"np.minimum({x} + {y}, {x}) * 2",
                 f"({x} * 16) // ({y} | 1)", f"np.abs({x} * 2)", f"-{x} > 0",
                 f"np.add({x}, {y}, dtype='{small}', casting='unsafe')",
                 f"np.multiply({x}, {y}, dtype='{small}', casting='unsafe') // 3",
                 f"{x}.astype('{small}') + {y}.astype('{small}')",
                 f"np.cumsum({x}, dtype='{small}')", f"{x}.sum(axis=0, dtype='{small}')",
                 f"np.subtract({x}, {y}, dtype='{fl}', casting='unsafe')",
                 f"({x}.astype('{small}') * 3).astype('int64').sum()"]
        for _ in range(r.randint(1, 3)):
            lines.append(f"{self.new()} = {r.choice(forms)}")
        z = self.new()
        k = r.random()
        if k < 0.3:
            lines.append(f"{z} = np.zeros({shape}, dtype='{small}')")
            lines.append(f"np.{r.choice(('add', 'multiply', 'subtract'))}({x}, {y}, out={z}, "
                         f"casting='unsafe')  # check")
        elif k < 0.5:
            lines.append(f"{x} {r.choice(('+=', '*=', '-='))} {y}  # check")
        elif k < 0.65:
            lines.append(f"{x} {r.choice(('+=', '*=', '-='))} "
                         f"{r.choice(('200', '1000', '-129', '2**40', 'np.int64(300)'))}  # check")
        elif k < 0.8:
            lines.append(f"{z} = np.asarray(data({r.randrange(1 << 30)}, {shape}, "
                         f"'{small}', 1))")
            lines.append(f"np.add({z}, {x}, out={z}, casting='unsafe')  # check")
        else:
            lines.append(f"{x}[::2] = {y}[::2] * {y}[::2]  # check")
        lines.append(f"{self.new()} = {x}.sum()  # check")
        return self.mix_queue(lines)

    # idioms of real programs at default sizes (session 28): results filled
    # row by row or column by column from reductions, in-place chains on
    # views of views across tile boundaries, ufunc.at/put/putmask/copyto on
    # overlapping views, out= of reductions and scans into views of their
    # input, matmul/dot/einsum with out= and transposed operands, sorts in
    # place on views, roll/flip/rot90 written back into their source, fancy
    # writes with repeated and negative indices on large arrays, reshapes
    # of non-contiguous arrays written through, astype/asarray aliasing
    def idiom(self, ns):
        r = self.r
        return r.choices((self.idiom_rows, self.idiom_tile_views, self.idiom_at,
                          self.idiom_out_reduce, self.idiom_contract_out, self.idiom_sort_views,
                          self.idiom_writeback, self.idiom_fancy_set, self.idiom_reshape_write,
                          self.idiom_alias),
                         (5, 4, 4, 4, 3, 3, 3, 3, 3, 2))[0](ns)

    def idiom_count(self, dt):
        """An element count: several 2 MiB tiles in bytes (2.1-10 MiB, about
        one in two, at most two per program, as the setting allows) or
        small."""
        r = self.r
        if r.random() < 0.5 and self.big < 2:
            self.big += 1
            n = int(r.uniform(2.1, 10) * (1 << 20)) // numpy.dtype(dt).itemsize
            return max(1000, min(n, self.big_max, 1_300_000))
        return r.choice((7, 30, 64, 257, 1000, 4099))

    def idiom_shape(self, dt, lead_max=None, square=False):
        """A 2-d shape of idiom_count's size; lead_max bounds the first axis
        (a loop over it), square where asked."""
        r = self.r
        n = self.idiom_count(dt)
        if square:
            s = max(2, int(math.isqrt(n)))
            return (s, s)
        rows = r.choice((2, 3, 5, 8, 16, 40)) if n > 300 else r.choice((2, 3, 4))
        if lead_max is None and r.random() < 0.4:
            return (max(1, n // rows), rows)
        return (rows, max(1, n // rows))

    def idiom_dt(self, floats=True):
        r = self.r
        return r.choice(('int16', 'int32', 'int64', 'uint32', 'float32', 'float64') if floats
                        else ('int8', 'int16', 'int32', 'int64', 'uint16', 'uint32', 'uint64'))

    def idiom_rows(self, ns):
        """A result filled row by row or column by column from reductions
        and scans of other arrays (a one-line loop), or rows updated from
        the row before; then read whole."""
        r = self.r
        dt = self.idiom_dt()
        R, C = self.idiom_shape(dt, lead_max=40)
        x, y, res = self.new(), self.new(), self.new()
        lines = [self.mix_fresh(x, (R, C), dt), self.mix_fresh(y, (R, C), dt)]
        red = r.choice(('sum', 'max', 'min'))
        k = r.random()
        if k < 0.2:
            lines.append(f"{res} = np.zeros({R}, dtype='{dt}')")
            lines.append(f"for i in range({R}): {res}[i] = {x}[i].{red}()")
        elif k < 0.35:
            lines.append(f"{res} = np.zeros({R}, dtype='float64')")
            lines.append(f"for i in range({R}): {res}[i] = ({x}[i] * {y}[i]).sum()")
        elif k < 0.5:
            lines.append(f"{res} = np.zeros(({C}, {R}), dtype='{dt}')")
            lines.append(f"for i in range({R}): {res}[:, i] = {r.choice((f'{x}[i]', f'{x}[i] - {y}[i]', f'{x}[i, ::-1]', f'np.cumsum({x}[i])'))}")
        elif k < 0.62:
            lines.append(f"{res} = np.zeros(({R}, {C}), dtype='{dt}')")
            lines.append(f"for i in range({R}): {res}[i] = np.cumsum({x}[i]) - {y}[i].{red}()")
        elif k < 0.75:
            lines.append(f"for i in range(1, {R}): {x}[i] {r.choice(('+=', '-='))} {x}[i - 1]")
        elif k < 0.85 and C <= 40:
            lines.append(f"{res} = np.zeros(({C},), dtype='{dt}')")
            lines.append(f"for j in range({C}): {res}[j] = {x}[:, j].{red}()")
        elif k < 0.92 and C <= 40:
            lines.append(f"for j in range({C}): {x}[:, j] = {x}[:, j] - {x}[:, j].min()")
        else:
            h = max(1, C // 2)
            lines.append(f"{res} = np.zeros(({R}, {h}), dtype='{dt}')")
            lines.append(f"for i in range({R}): {res}[i] = np.maximum({x}[i, :{h}], {y}[i, ::-1][:{h}])")
        lines[-1] += '  # check'
        if res in lines[-1] or any(res in ln for ln in lines[2:]):
            lines.append(f"{self.new()} = {r.choice((f'{res}.sum()', f'{res} * 2', f'{res}[::-1].cumsum(axis=0)', f'{res}.max(axis=0)'))}  # check")
        lines.append(f"{self.new()} = {x}.sum(axis=0)  # check")
        return self.mix_queue(lines)

    def tile_elems(self, dt):
        """Elements in one tile of a 1-d array: 2 MiB, or 4 KiB (small_tiles)."""
        return (4096 if self.big_max <= 200_000 else 1 << 21) // numpy.dtype(dt).itemsize

    def idiom_tile_views(self, ns):
        """In-place operator chains on views of views whose bounds sit at
        tile boundaries (a slice from just before one tile's end to just
        after the next's start, stepped views of it), then the base read."""
        r = self.r
        dt = self.idiom_dt()
        n = max(40, self.idiom_count(dt))
        T = self.tile_elems(dt)
        if T >= n:
            T = max(4, n // 3)
        t, v, w = self.new(), self.new(), self.new()
        lines = [self.mix_fresh(t, (n,), dt)]
        lo = max(0, T - r.randint(1, 9))
        hi = min(n, r.choice((2, 3)) * T + r.randint(0, 9))
        if hi - lo < 6:
            lo, hi = 0, n
        lines.append(f"{v} = {t}[{lo}:{hi}]")
        lines.append(f"{w} = {v}{r.choice(('[::3]', '[::-1][2::5]', '[1::2]', '[::-7]', '[T:]'.replace('T', str(T - lo))))}")
        m = (hi - lo) // 4
        ops = [f"{w} *= 2", f"{w} += 1", f"{v}[1::2] -= 1", f"{w} += {v}[:len({w})]",
               f"{v}[::-1][::2] += {t}[:len({v}[::-1][::2])]", f"{t}[{T - 1}:{T + 1}] = 7",
               f"{w}[...] = {w}[::-1]", f"{v}[:{m}] += {v}[-{m}:]" if m else f"{v} += 1",
               f"{v}[::2][:len({v}[1::2])] = {v}[1::2] * 2",
               f"np.add({w}, {v}[::-1][:len({w})], out={w})",
               f"{t}[{T - 3}::{T}] -= {t}[{T - 4}::{T}][:len({t}[{T - 3}::{T}])]"]
        reads = [f"{t}.sum()", f"{t}[{max(0, T - 10)}:{T + 10}].copy()", f"{v}.max()",
                 f"{w} * 2", f"({t} + 1)[::-1].cumsum()[-3:]", f"{t}[::{T}].copy()"]
        for _ in range(r.randint(2, 5)):
            lines.append(r.choice(ops))
            if r.random() < 0.4:
                lines.append(f"{self.new()} = {r.choice(reads)}")
        lines[-1] += '  # check'
        lines.append(f"{self.new()} = {t}.sum()  # check")
        return self.mix_queue(lines)

    def idiom_index(self, n, k, neg=True, dup=True):
        """Source of an int64 index array of k positions spread over 0..n-1,
        every other one negative, with repeats where asked."""
        r = self.r
        p = r.choice((7919, 104729, 1299709, 3))
        s = f"np.arange({k}, dtype='int64') * {p} % {n}"
        if neg:
            s = f"({s} - {n} * (np.arange({k}) % 2))"
        if dup:
            s = f"np.concatenate([{s}, ({s})[{r.randint(0, max(0, k - 3))}::{r.choice((1, 3))}]])"
        if r.random() < 0.3:
            # an index type narrower than intp (negative positions are
            # wrapped by the index's length, not in its type)
            s = f"({s}).astype('{r.choice(('int32', 'int32') + (() if neg else ('uint32',)))}')"
        return s

    def idiom_at(self, ns):
        """ufunc.at with repeated and negative indices, put, putmask and
        copyto(where=) on overlapping views of large arrays."""
        r = self.r
        dt = self.idiom_dt()
        n = max(8, self.idiom_count(dt))
        t, idx = self.new(), self.new()
        k = r.choice((5, 100, 3000, min(n, 50000)))
        lines = [self.mix_fresh(t, (n,), dt)]
        view, m = r.choice(((t, n), (f"{t}[::2]", (n + 1) // 2), (f"{t}[1:]", n - 1),
                            (f"{t}[::-1]", n), (f"{t}[::-3]", (n + 2) // 3)))
        dup = r.random() < 0.7
        lines.append(f"{idx} = {self.idiom_index(m, min(k, m), dup=dup)}")
        uf = r.choice(('add', 'subtract', 'maximum', 'minimum', 'multiply'))
        forms = [f"np.{uf}.at({view}, {idx}, 1)",
                 f"np.{uf}.at({view}, {idx}, {t}[{idx}])",
                 f"np.{uf}.at({view}, {idx}, {t}[:len({idx})][::-1])",
                 f"{view}[{idx}] += 1", f"{view}[{idx}] = {view}[{idx}] * 2",
                 f"np.putmask({view}, {view} > 0, {t}[::-1][:{m}])",
                 f"np.putmask({t}[1:], {t}[:-1] > 0, {t}[:-1])",
                 f"np.copyto({t}[1:], {t}[:-1], where={t}[:-1] > 0)",
                 f"np.copyto({view}, {t}[:{m}][::-1], where={t}[:{m}] < 1)",
                 f"np.place({view}, {view} < 0, [1, 2, 3])"]
        if not dup:
            forms += [f"np.put({view}, {idx}, {t}[:len({idx})])",
                      f"np.put({view}, {idx}[::-1], np.arange(len({idx})))"]
        for _ in range(r.randint(1, 3)):
            lines.append(r.choice(forms) + '  # check')
            if r.random() < 0.4:
                lines.append(f"{self.new()} = {t}.{r.choice(('sum', 'max', 'min'))}()")
        lines.append(f"{self.new()} = {t}.sum()  # check")
        return self.mix_queue(lines)

    def idiom_out_reduce(self, ns):
        """out= of reductions and scans into views of their own input (NumPy
        computes as if the input were copied first) or into another dtype."""
        r = self.r
        dt = self.idiom_dt()
        R, C = self.idiom_shape(dt)
        x, z = self.new(), self.new()
        lines = [self.mix_fresh(x, (R, C), dt)]
        red = r.choice(('sum', 'max', 'min'))
        forms = [f"np.{red}({x}, axis=0, out={x}[0])", f"np.{red}({x}, axis=0, out={x}[-1])",
                 f"np.{red}({x}, axis=1, out={x}[:, 0])",
                 f"np.{red}({x}, axis=1, out={x}[:, -1])",
                 f"np.cumsum({x}, axis=0, out={x})", f"np.cumsum({x}, axis=1, out={x})",
                 f"np.cumsum({x}, axis=0, out={x}[::-1])",
                 f"np.cumsum({x}, axis=1, out={x}[:, ::-1])",
                 f"np.cumsum({x}.T, axis=1, out={x}.T)",
                 f"np.{r.choice(('maximum', 'minimum', 'add'))}.accumulate({x}, axis=0, out={x})",
                 f"np.cumsum({x}[:-1], axis=0, out={x}[1:])",
                 f"np.add.reduce({x}, axis=0, out={x}[{R // 2}])",
                 f"{x}.sum(axis=0, out={x}[::-1][0])",
                 f"np.cumsum({x}.reshape(-1)[:-1], out={x}.reshape(-1)[1:])"]
        if dt.startswith('float'):
            forms += [f"np.mean({x}, axis=0, out={x}[1 % {R}])"]
        lines.append(r.choice(forms) + '  # check')
        if r.random() < 0.5:
            # (float values into an integer out=: NumPy casts its buffer's partial
            # sums, so the result depends on its buffer size: not generated; a
            # float32 value's tolerance does not pass through out= into
            # float64, so a float reduction keeps its dtype)
            zt = dt if dt.startswith('float') else r.choice(('float64', 'int64', dt))
            lines.append(f"{z} = np.zeros({C}, dtype='{zt}')")
            lines.append(f"np.{red}({x}[::-1], axis=0, out={z})  # check")
            if not (zt.startswith('float') and not dt.startswith('float')):
                # (a float out of an integer type's range cast back is undefined)
                lines.append(f"{x}[{R // 2}] = {z}  # check")
        if r.random() < 0.5:
            lines.append(r.choice(forms) + '  # check')
        lines.append(f"{self.new()} = {x}.sum(axis=1)  # check")
        return self.mix_queue(lines)

    def idiom_contract_out(self, ns):
        """matmul, dot, einsum and tensordot with out= (contiguous or not,
        aliasing an operand) and transposed operands."""
        r = self.r
        dt = r.choice(('int32', 'int64', 'float32', 'float64'))
        big = r.random() < 0.4 and self.big < 2
        if big:
            self.big += 1
        N = r.choice((300, 400, 520) if big and self.big_max > 200_000 else (3, 8, 33, 64))
        K = r.choice((N, N // 2 + 1, 7))
        a, b, s, c = self.new(), self.new(), self.new(), self.new()
        lines = [self.mix_fresh(a, (N, K), dt), self.mix_fresh(b, (K, N), dt),
                 self.mix_fresh(s, (N, N), dt), f"{c} = np.zeros(({N}, {N}), dtype='{dt}')"]
        forms = [f"np.matmul({a}, {b}, out={c})", f"np.matmul({b}.T, {a}.T, out={c})",
                 f"np.matmul({a}, {b}, out={c}.T)", f"np.matmul({a}[::-1], {b}, out={c}[:, ::-1])",
                 f"np.matmul({s}, {s}, out={s})", f"np.matmul({s}.T, {s}, out={s}.T)",
                 f"np.matmul({s}, {s}.T, out={s})", f"np.dot({s}, {s}, out={s})",
                 f"np.dot({a}, {b}, out={c})", f"np.dot({a}, {b}, out={c}.T)",
                 f"np.einsum('ij,jk->ik', {a}, {b}, out={c})",
                 f"np.einsum('ji,kj->ik', {b}, {a}, out={c})",
                 f"np.einsum('ij,jk->ki', {a}, {b}, out={c}[::-1])",
                 f"{c}[...] = {a} @ {b}", f"{c}[::-1] = {b}.T @ {a}.T",
                 f"{s} @= {s}.T", f"{s}[...] = {s} @ {s}",
                 f"{c}[:] = np.tensordot({a}, {b}, axes=1)",
                 f"{c}[...] = np.tensordot({b}.T, {a}.T, axes=([1], [0]))"]
        for _ in range(r.randint(1, 3)):
            lines.append(r.choice(forms) + '  # check')
        lines.append(f"{self.new()} = {c}.sum(axis=0) + {s}.sum(axis=1)  # check")
        return self.mix_queue(lines)

    def idiom_sort_views(self, ns):
        """Sorts in place on views (a[::2].sort(), a.T.sort(), a[:, ::-1].
        sort(axis=0)), in-place partition then a sort, sorted values and
        argsort permutations written back into views."""
        r = self.r
        dt = self.idiom_dt(floats=r.random() < 0.5)
        two = r.random() < 0.5
        kind = r.choice(('', "kind='stable'", "kind='quicksort'", "kind='heapsort'"))
        if two:
            R, C = self.idiom_shape(dt)
            t = self.new()
            lines = [self.mix_fresh(t, (R, C), dt)]
            forms = [f"{t}[::2].sort(axis=1{', ' + kind if kind else ''})",
                     f"{t}[:, ::-1].sort(axis=0)", f"{t}.T.sort({kind})",
                     f"{t}[1:, ::2].sort(axis=0)", f"{t}[::-1].sort(axis=1)",
                     f"{t}[...] = np.sort({t}, axis=0)[::-1]",
                     f"{t}[:, ::-2] = np.sort({t}[:, ::2], axis=1)",
                     f"{t}.T[...] = np.sort({t}.T, axis=0)"]
        else:
            n = max(4, self.idiom_count(dt))
            t = self.new()
            lines = [self.mix_fresh(t, (n,), dt)]
            k = r.randrange(max(1, n // 3))
            forms = [f"{t}[::2].sort({kind})", f"{t}[::-1].sort({kind})", f"{t}[5:-5].sort()",
                     f"{t}[::-3].sort({kind})", f"{t}[1::2][::-1].sort()",
                     f"{t}[::3].partition({k}); {t}[::3].sort()",
                     f"{t}[::-2].partition({k}); {t}[::-2].sort()",
                     f"{t}[::2] = {t}[::2][np.argsort({t}[::2], kind='stable')]",
                     f"{t}[1:] = np.sort({t}[:-1])", f"{t}[:] = np.sort({t})[::-1]"]
        for _ in range(r.randint(1, 3)):
            lines.append(r.choice(forms) + '  # check')
            if r.random() < 0.4:
                lines.append(f"{self.new()} = np.diff({t}, axis=0).min(axis=0)")
        lines.append(f"{self.new()} = {t}.sum(axis=0)  # check")
        return self.mix_queue(lines)

    def idiom_writeback(self, ns):
        """np.roll, flip, rot90 and transposes written back into their own
        source (a view of it on both sides, or a copy)."""
        r = self.r
        dt = self.idiom_dt()
        square = r.random() < 0.4
        R, C = self.idiom_shape(dt, square=square)
        t = self.new()
        lines = [self.mix_fresh(t, (R, C), dt)]
        k = r.choice((1, 3, -2, R + 1, 1000))
        forms = [f"{t}[...] = np.roll({t}, {k}, axis=0)", f"{t}[...] = np.roll({t}, {k})",
                 f"{t}[...] = np.roll({t}, {k}, axis=1)", f"{t}[:] = np.flip({t})",
                 f"{t}[...] = np.flip({t}, 0)", f"{t}[...] = np.flip({t}, 1)",
                 f"np.copyto({t}, np.flip({t}, 0))", f"{t}[1:] = np.roll({t}[:-1], {k}, axis=0)",
                 f"{t}[::2] = np.flip({t}[1::2][:len({t}[::2])], 1)"
                 if R % 2 == 0 else f"{t}[1::2] = np.flip({t}[::2][:len({t}[1::2])], 1)",
                 f"{t}[...] = np.rot90({t}, 2)", f"{t}[:, :{C // 2}] = np.flip({t}[:, {C - C // 2}:], 1)",
                 f"{t}[...] = np.roll({t}[::-1], -1, axis=1)"]
        if square:
            forms += [f"{t}[...] = np.rot90({t})", f"{t}[...] = np.rot90({t}, -1)",
                      f"{t}[...] = {t}.T", f"{t}[...] = np.transpose({t})[::-1]",
                      f"{t}[:] = np.rot90({t}, axes=(1, 0))[::-1]"]
        for _ in range(r.randint(1, 3)):
            lines.append(r.choice(forms) + '  # check')
        lines.append(f"{self.new()} = {t}.sum(axis=0)  # check")
        return self.mix_queue(lines)

    def idiom_fancy_set(self, ns):
        """Fancy-index writes with repeated and negative indices on large
        arrays: a repeated index gets the same value (`t[i] = t[i] * 2`) or
        buffered once (`t[i] += 1`); rows and columns of 2-d arrays."""
        r = self.r
        dt = self.idiom_dt()
        if r.random() < 0.5:
            n = max(8, self.idiom_count(dt))
            t, idx = self.new(), self.new()
            kk = r.choice((4, 300, min(n, 100000)))
            lines = [self.mix_fresh(t, (n,), dt), f"{idx} = {self.idiom_index(n, min(kk, n))}"]
            forms = [f"{t}[{idx}] = {t}[{idx}] * 2", f"{t}[{idx}] += 3", f"{t}[{idx}] -= {t}[{idx}]",
                     f"{t}[{idx}] = 5", f"{t}[[-1, 0, -1, {n // 2}]] = 9",
                     f"{t}[::-1][{idx}] = -{t}[{idx}]", f"{t}[{idx}[::-1]] *= 2",
                     f"{t}[{idx}] = np.minimum({t}[{idx}], {t}[::-1][{idx}])"]
        else:
            R, C = self.idiom_shape(dt)
            t, ri, ci = self.new(), self.new(), self.new()
            lines = [self.mix_fresh(t, (R, C), dt), f"{ri} = {self.idiom_index(R, min(R, 6))}",
                     f"{ci} = {self.idiom_index(C, min(C, 9))}"]
            forms = [f"{t}[{ri}] = {t}[{ri}][:, ::-1]", f"{t}[:, {ci}] *= 2", f"{t}[{ri}] += 1",
                     f"{t}[{ri}, {ci}[:len({ri})]] = 0" if R <= C else f"{t}[{ri}[:len({ci})], {ci}] = 0",
                     f"{t}[{ri}[:, None], {ci}] = -1", f"{t}[::-1][{ri}] = {t}[{ri}] + 1",
                     f"{t}.T[{ci}] = {t}.T[{ci}] * 3", f"{t}[{ri}, ::2] -= 1"]
        for _ in range(r.randint(1, 3)):
            lines.append(r.choice(forms) + '  # check')
        lines.append(f"{self.new()} = {t}.sum(axis=0)  # check")
        return self.mix_queue(lines)

    def idiom_reshape_write(self, ns):
        """Reshapes of non-contiguous arrays (a view where the strides
        allow it, a copy otherwise, in both), then written through: the base
        must change exactly where NumPy's does."""
        r = self.r
        dt = self.idiom_dt()
        R, C = self.idiom_shape(dt)
        C -= C % 2
        C = max(C, 2)
        t, v = self.new(), self.new()
        lines = [self.mix_fresh(t, (R, C), dt)]
        forms = [f"{t}[::2].reshape(-1, {C // 2}, 2)", f"{t}[:, ::2].reshape(-1)",
                 f"{t}.T.reshape(-1)", f"{t}.T.reshape({C}, {R})[::-1]",
                 f"{t}[::-1].reshape({R}, 2, {C // 2})", f"{t}[:, 1:].reshape(-1)",
                 f"{t}[::2].ravel()", f"{t}.ravel()[::2].reshape({R}, {C // 2})",
                 f"{t}.T[::-1].reshape(-1, {R})", f"{t}[:, ::-1].reshape({R}, {C // 2}, 2)",
                 f"{t}.reshape(-1)[::-1].reshape({R}, {C})", f"{t}[::-1, ::2].T.reshape(-1)",
                 f"{t}.T.ravel(order='F')", f"{t}[:, ::2].ravel(order='K')"]
        lines.append(f"{v} = {r.choice(forms)}")
        lines.append(r.choice((f"{v}[...] = 0", f"{v} += 1", f"{v}[::3] = -1",
                               f"{v}[{v} > 0] = 2", f"{v}[1:] = {v}[:-1]")) + '  # check')
        lines.append(f"{self.new()} = {t}.sum(axis=0)  # check")
        return self.mix_queue(lines)

    def idiom_alias(self, ns):
        """astype(copy=False), asarray, ascontiguousarray and array(copy=
        False) of views: the same memory or a copy as in NumPy, then written
        through."""
        r = self.r
        dt = self.idiom_dt()
        n = max(8, self.idiom_count(dt))
        t, v = self.new(), self.new()
        lines = [self.mix_fresh(t, (n,), dt)]
        other = 'float64' if dt != 'float64' else 'int64'
        forms = [f"{t}[::2].astype('{dt}', copy=False)", f"{t}.astype('{dt}', copy=False)",
                 f"{t}[1:].astype('{other}', copy=False)", f"np.asarray({t}[::-1], dtype='{dt}')",
                 f"np.ascontiguousarray({t}[::2])", f"np.ascontiguousarray({t}[5:])",
                 f"np.asarray({t}[3:], order='C')", f"np.array({t}[::2], copy=None)",
                 f"np.asarray({t}.reshape(2, -1)[:, 1:], order='F')" if n % 2 == 0 else
                 f"np.asarray({t}, order='F')",
                 f"np.require({t}[::3], requirements='C')", f"np.require({t}[2:], requirements='W')"]
        lines.append(f"{v} = {r.choice(forms)}")
        lines.append(r.choice((f"{v}[...] = 1", f"{v} *= 2", f"{v}[::-1][:4] = 7")) + '  # check')
        lines.append(f"{self.new()} = {t}.sum()  # check")
        return self.mix_queue(lines)

    # -- self-referencing writes (session 29): what a program that works on
    # one array in place writes from that same array - 1-d assignments from
    # an overlapping view of another step (NumPy's loop copies in order, no
    # copy first: a value written is read again), rows and columns
    # broadcast from the array itself, np.ix_ and nonzero-tuple keys,
    # inverse permutations, fancy keys beside negative steps and of narrow
    # index types, reductions over transposed and stepped views (and out=
    # into the array), in-place operators through alias names
    def selfref(self, ns):
        r = self.r
        return r.choices((self.self_steps, self.self_bcast, self.self_index,
                          self.self_reduce_t, self.self_alias, self.self_out),
                         (4, 3, 4, 3, 3, 3))[0](ns)

    def self_out(self, ns):
        """Functions other than the plain ufuncs with out= a part of their
        own input: frexp/modf/divmod (out=(t, w)), ptp, order statistics,
        nan functions, std/var, clip with bounds from the array, choose,
        reduceat, accumulate, einsum, dot and matmul into a row."""
        r = self.r
        dt = r.choice(('float32', 'float64')) if r.random() < 0.7 else self.idiom_dt()
        t = self.new()
        first = self.mix_fresh(t, self.mix_shape(dt, square=r.random() < 0.3), dt)

        def line(v, ns):
            if v.ndim != 2 or 0 in v.shape:
                return "__T__[...] = __T__[::-1]"
            R, C = v.shape
            i, j = r.randrange(R), r.randrange(C)
            w = self.new()
            fl = v.dtype.kind == 'f'
            forms = [f"{w} = np.ptp(__T__, axis=0, out=__T__[{i}])",
                     f"{w} = np.ptp(__T__.T, axis=0, out=__T__[:, {j}])",
                     f"{w} = np.divmod(__T__[::-1], 3, out=(__T__, np.zeros(__T__.shape, __T__.dtype)))",
                     f"{w} = np.clip(__T__, __T__[::-1], __T__[::-1] + 2, out=__T__)",
                     f"{w} = np.choose((__T__ > 0).astype('int8'), [__T__, __T__[::-1]], out=__T__)",
                     f"{w} = np.add.reduceat(__T__, [0, {C // 2}, {j}], axis=1, out=__T__[:, :3])"
                     if C >= 3 else f"{w} = __T__.sum()",
                     f"{w} = np.maximum.accumulate(__T__[:, ::-1], axis=1, out=__T__)",
                     f"{w} = np.dot(__T__, __T__[{i}], out=__T__[:, {j}])" if R == C and fl
                     else f"{w} = np.max(__T__, axis=1, out=__T__[:, {j}])",
                     f"{w} = np.einsum('ij->j', __T__, out=__T__[{i}])" if fl
                     else f"{w} = np.min(__T__, axis=0, out=__T__[{i}])"]
            if fl:
                forms += [f"{w} = np.modf(__T__{r.choice(('', '[::-1]'))}, out=(__T__, np.zeros_like(__T__)))",
                          f"{w} = np.frexp(__T__{r.choice(('', '[::-1]'))}, "
                          f"out=(__T__, np.zeros(__T__.shape, 'int32')))",
                          f"{w} = np.median(__T__, axis=0, out=__T__[{i}])",
                          f"{w} = np.percentile(__T__, 30, axis=1, out=__T__[:, {j}])",
                          f"{w} = np.nanmean(__T__, axis=0, out=__T__[{i}])",
                          f"{w} = np.std(__T__, axis=0, out=__T__[{i}])",
                          f"{w} = np.var(__T__[::-1], axis=1, out=__T__[:, {j}])",
                          f"{w} = np.nanmax(__T__, axis=1, out=__T__[:, {j}])",
                          f"{w} = np.fix(__T__[::-1] / 3, out=__T__)"]
            return r.choice(forms)
        return self.self_queue(first, t, line, r.randint(1, 3))

    def self_queue(self, first, t, make, k, end=True):
        """first, then k lines made by make(v) from t's value at their
        turn (each checked), reads between them, a checked read at the end."""
        r = self.r

        def then(ns, make=make):
            v = ns.get(t)
            if not isinstance(v, numpy.ndarray):
                return self.create(ns)
            # (a make may give two lines: the second runs next)
            lines = make(v, ns).replace('__T__', t).split('\n')
            for ln in reversed(lines[1:]):
                self.queue.insert(0, lambda ns, ln=ln: ln + '  # check')
            return lines[0] + ('  # check' if len(lines) == 1 else '')

        def read(ns):
            if not isinstance(ns.get(t), numpy.ndarray):
                return self.create(ns)
            return f"{self.new()} = " + r.choice((
                f"{t}.sum()", f"{t}.max()", f"{t}[::-1].cumsum(axis=0)", f"{t} * 2 - {t}[::-1]",
                f"{t}.copy()", f"{t}.min(axis=-1)")) + '  # check'
        for _ in range(k):
            self.queue.append(then)
            if r.random() < 0.3:
                self.queue.append(read)
        if end:
            self.queue.append(read)
        return first

    def self_steps(self, ns):
        """1-d assignments from overlapping views of another step or
        direction (of the array or of a stepped window of it), and blocks
        written from a function of an overlapping block."""
        r = self.r
        dt = self.idiom_dt()
        n = max(6, self.fill_count(dt))
        t = self.new()
        first = self.mix_fresh(t, (n,), dt)
        w = t
        if r.random() < 0.3:
            w = self.new()
            self.queue.append(lambda ns, w=w: f"{w} = {t}[{r.choice(('::-1', '1:', '::2', '::-3'))}]")
        return self.self_queue(first, w, self.self_step_line, r.randint(1, 3))

    def self_step_line(self, v, ns=None):
        """One write of the 1-d v (named by the caller) from an overlapping
        view of itself."""
        r = self.r
        n = v.shape[0] if v.ndim == 1 else 0
        if n < 4:
            return "__T__[...] = __T__[::-1]"
        k = r.choice((2, 3, 5))
        m = len(range(0, n, k))             # the length of [::k]
        j = r.randint(0, n - m)
        back = r.randint(0, n - m)
        forms = [f"__T__[::{k}] = __T__[{j}:{j + m}]",       # the target runs ahead
                 f"__T__[{j}:{j + m}] = __T__[::{k}]",
                 f"__T__[{n - 1}::-{k}] = __T__[{j}:{j + m}]",   # opposite: copied
                 f"__T__[{j}:{j + m}] = __T__[{back}:{back + m}]",
                 f"__T__[{j + m - 1}:{j - 1 if j else ''}:-1] = __T__[{back}:{back + m}]",
                 f"__T__[1::{k}] = __T__[:{len(range(1, n, k))}]",
                 f"__T__[:{len(range(1, n, k))}] = __T__[1::{k}]",
                 f"__T__[{j}:{j + m}] = " + r.choice((
                     f"__T__[{back}:{back + m}] * 2 - 1", f"np.abs(__T__[::{k}])",
                     f"np.cumsum(__T__[{back}:{back + m}])", f"__T__[::-{k}] + __T__[::{k}]",
                     f"np.maximum(__T__[{back}:{back + m}], __T__[::{k}])")),
                 f"__T__[{j}:{j + m}] += __T__[::{k}]",
                 f"__T__[::{k}] -= __T__[{back}:{back + m}][::-1]"]
        return r.choice(forms)

    def self_bcast(self, ns):
        """Rows, columns and blocks of a 2-d array written from other rows
        and columns of itself, broadcast: `t[1:] = t[0]`, `t[:, 1:] =
        t[:, :1]`, `t[...] = t[k]`, a column from a row."""
        r = self.r
        dt = self.idiom_dt()
        t = self.new()
        first = self.mix_fresh(t, self.mix_shape(dt, square=r.random() < 0.3), dt)
        return self.self_queue(first, t, self.self_bcast_line, r.randint(1, 3))

    def self_bcast_line(self, v, ns=None):
        r = self.r
        if v.ndim != 2 or 0 in v.shape:
            return "__T__[...] = __T__[::-1]"
        R, C = v.shape
        i, i2 = r.randrange(R), r.randrange(R)
        j, j2 = r.randrange(C), r.randrange(C)
        forms = [f"__T__[1:] = __T__[0]", f"__T__[:-1] = __T__[-1, ::-1]",
                 f"__T__[:, 1:] = __T__[:, :1]", f"__T__[:, ::-2] = __T__[:, {j}:{j + 1}]",
                 f"__T__[...] = __T__[{i}]", f"__T__[::-1] = __T__[{i}]",
                 f"__T__[{i}:] = __T__[{i2}]", f"__T__[:, {j}] = __T__[:, {j2}]",
                 f"__T__[{i}] += __T__[{i2}]", f"__T__ -= __T__[{i}]",
                 f"__T__ -= __T__[:, {j}:{j + 1}]", f"__T__[:, {j}:] *= __T__[:, :1]",
                 f"__T__[..., None][{i}] = __T__[{i2}, :, None]"]
        if R == C:
            forms += [f"__T__[:, {j}] = __T__[{i}]", f"__T__[{i}] = __T__[:, {j}]",
                      f"__T__[:, {j}] = __T__[{i}, ::-1]", f"__T__[{i}, ::-1] = __T__[:, {j}]"]
        elif C > R:
            forms += [f"__T__[:, {j}] = __T__[{i}, :{R}]", f"__T__[:, {j}] = __T__[{i}, {C - R}:][::-1]"]
        else:
            forms += [f"__T__[{i}] = __T__[:{C}, {j}]", f"__T__[{i}, ::-1] = __T__[{R - C}:, {j}]"]
        return r.choice(forms)

    def self_index(self, ns):
        """np.ix_ and nonzero-tuple keys, an inverse permutation, fancy keys
        beside negative steps and narrow index types, read and written."""
        r = self.r
        dt = self.idiom_dt()
        t = self.new()
        shape = self.mix_shape(dt) if r.random() < 0.7 else (max(6, self.fill_count(dt)),)
        first = self.mix_fresh(t, shape, dt)
        return self.self_queue(first, t, self.self_index_line, r.randint(1, 3))

    def self_key(self, d, k):
        """Source of an index array of k positions into an axis of d, with
        repeats and negative ones, sometimes of a narrow type."""
        r = self.r
        idx = self.int_list(d, k, bad=0.01) if d < 128 or r.random() < 0.5 else \
            [r.choice((0, 1, 2, -1, -2, -3, -100, 100)) % d - (d if r.random() < 0.5 else 0)
             for _ in range(k)]
        return f"np.array({idx}, dtype='{self.index_dtype(idx)}')" if r.random() < 0.6 \
            else repr(idx)

    def self_index_line(self, v, ns=None):
        r = self.r
        if v.ndim == 0 or 0 in v.shape:
            return "__T__[...] = 1"
        d0 = v.shape[0]
        a = self.new()
        cmp = r.choice(('> 0', '< 1', '% 3 == 0'))
        forms = [f"{a} = __T__[np.nonzero(__T__ {cmp})]",
                 f"__T__[np.nonzero(__T__ {cmp})] = 0",
                 f"__T__[np.where(__T__ {cmp})] += 1",
                 f"{a} = __T__[::-1][{self.self_key(d0, r.randint(1, 5))}]",
                 f"__T__[::-1][{self.self_key(d0, r.randint(1, 5))}] = __T__[:1]",
                 f"__T__[{self.self_key(d0, r.randint(1, 5))}] = __T__[{self.self_key(d0, 1)}]",
                 f"__T__[{self.self_key(d0, r.randint(1, 5))}] += __T__[0]"]
        if v.ndim == 1:
            n = d0
            # (an inverse permutation: two lines)
            forms += [f"{a} = np.argsort(__T__, kind='stable')\n__T__[{a}] = np.arange({n}) % 50",
                      f"{a} = np.argsort(__T__[::-1], kind='stable')\n"
                      f"__T__[...] = __T__[{a}][np.argsort({a}, kind='stable')]",
                      f"__T__[::-2][{self.self_key(len(range(0, n, 2)), 3)}] -= 1",
                      f"{a} = np.argsort(__T__, kind='stable')\n__T__[...] = __T__[{a}]"]
        else:
            d1 = v.shape[1]
            rows, cols = self.self_key(d0, r.randint(1, 4)), self.self_key(d1, r.randint(1, 3))
            rows2, cols2 = self.self_key(d0, 1), self.self_key(d1, 1)
            forms += [f"{a} = __T__[np.ix_({rows}, {cols})]",
                      f"__T__[np.ix_({rows}, {cols})] = 7",
                      f"__T__[np.ix_({rows}, {cols})] += __T__[np.ix_({rows2}, {cols2})]",
                      f"__T__[np.ix_(__T__[:, 0] {cmp}, __T__[0] {cmp})] = 1",
                      f"{a} = __T__[::-1][np.ix_({rows}, {cols})]",
                      f"{a} = __T__[{rows}, ::-2]", f"{a} = __T__[::-2, {cols}]",
                      f"__T__[{rows}, ::-2] = __T__[0, ::-2]",
                      f"__T__[::-1, {cols}] += 1",
                      f"__T__[:, {cols}] = __T__[:, {cols2}]",
                      f"{a} = __T__.T[np.nonzero(__T__.T {cmp})]"]
        return r.choice(forms)

    def self_reduce_t(self, ns):
        """Reductions and scans over transposed, stepped and swapped views,
        some with out= a row or column of the array itself."""
        r = self.r
        dt = self.idiom_dt()
        t = self.new()
        shape = self.mix_shape(dt) if r.random() < 0.75 else \
            (r.choice((2, 3, 5)),) + self.mix_shape(dt)
        first = self.mix_fresh(t, shape, dt)
        return self.self_queue(first, t, self.self_reduce_line, r.randint(1, 4))

    def self_reduce_line(self, v, ns=None):
        r = self.r
        if v.ndim < 2 or 0 in v.shape:
            return f"{self.new()} = __T__.sum()"
        a = self.new()
        view = r.choice(("__T__.T", "__T__.T[::-1]", "__T__[::-1, ::2].T", "__T__.T[:, 1:]",
                         "np.swapaxes(__T__, 0, -1)", "__T__[:, ::-1].T[::3]",
                         "np.moveaxis(__T__, 0, -1)[..., ::-1]"))
        fn = r.choice(('sum', 'max', 'min', 'argmax', 'argmin', 'cumsum', 'any', 'mean', 'prod'))
        ax = r.choice((0, 1, -1, None) + ((0, 1),) * (fn not in ('argmax', 'argmin', 'cumsum')))
        kw = f"axis={ax}" + (", keepdims=True" if r.random() < 0.2 and fn not in
                             ('cumsum', 'argmax', 'argmin') else '')
        if fn == 'prod':
            kw += ", dtype='int64'" if v.dtype.kind in 'iu' else ''
        k = r.random()
        if k < 0.6:
            return f"{a} = {view}.{fn}({kw})"
        if k < 0.75:
            return f"{a} = np.add.reduce({view}, axis={r.choice((0, 1, (0, 1), -1))})"
        R, C = v.shape[-2:]
        if v.ndim == 2 and k < 0.9:
            # into the array itself: NumPy reads the inputs as they were
            return r.choice((f"np.sum(__T__.T, axis=0, out=__T__[:, 0])",
                             f"np.max(__T__.T[::-1], axis=0, out=__T__[:, 0])",
                             f"np.min(__T__[::-1], axis=0, out=__T__[{R - 1}])",
                             f"np.cumsum(__T__.T, axis=1, out=__T__.T)",
                             f"np.cumsum(__T__[::-1], axis=0, out=__T__)",
                             f"np.maximum.accumulate(__T__.T[::-1], axis=0, out=__T__.T)"))
        return f"{a} = {view}.{fn}({kw}) - {view}[::-1].{fn}({kw})" \
            if fn not in ('any', 'argmax', 'argmin') else f"{a} = {view}.{fn}({kw})"

    def self_alias(self, ns):
        """In-place operators and out= through names that alias the same
        base with other strides (`w = t[::-1]; w += t`)."""
        r = self.r
        dt = self.idiom_dt()
        t = self.new()
        shape = self.mix_shape(dt, square=r.random() < 0.3) if r.random() < 0.7 else \
            (max(6, self.fill_count(dt)),)
        first = self.mix_fresh(t, shape, dt)
        w = self.new()
        views = ["__T__[::-1]", "__T__[1:]", "__T__[::2]", "__T__.reshape(-1)",
                 "__T__.ravel()[::-1]"]
        if len(shape) == 2:
            views += ["__T__[:, ::-1]", "__T__[::-1, 1:]", "__T__[:, 1:]"] + \
                (["__T__.T", "__T__.T[::-1]"] if shape[0] == shape[1] else [])
        vw = r.choice(views).replace('__T__', t)
        self.queue.append(lambda ns: f"{w} = {vw}")

        def line(v, ns):
            x = ns.get(w)
            if not isinstance(x, numpy.ndarray):
                return "__T__[...] = __T__[::-1]"
            # the part of t of w's shape (w is t's shape or a part of it)
            part = "__T__" if x.shape == v.shape else \
                f"__T__[{', '.join(f':{d}' for d in x.shape)}]" if x.ndim == v.ndim else \
                f"__T__.reshape(-1)[:{x.size}]"
            op = r.choice(('+=', '-=', '*=', '//=' if dt[0] in 'iu' else '/=',
                           '|=' if dt[0] in 'iu' else '+='))
            return r.choice((f"{w} {op} {part}", f"{part} {op} {w}", f"{w} {op} {part}[::-1]",
                             f"np.add({w}, 1, out={w})", f"np.subtract({part}, {w}, out={w})",
                             f"np.multiply({w}, {part}[::-1], out={part})",
                             f"{w}[...] = {w}[::-1]", f"{w} {op} {w}[::-1]",
                             f"{w} -= {w}.max()", f"{part}[...] = {w} * 2 - {part}"))
        return self.self_queue(first, t, line, r.randint(1, 3))

    # -- library steps (session 30): public functions and ndarray method
    # forms real programs use that the steps above never make: index grids
    # (indices, mgrid, ogrid, unravel_index, ravel_multi_index, tri,
    # identity) and triangle and diagonal keys (triu/tril_indices(_from),
    # diag_indices(_from), fill_diagonal, vander, diagflat); statistics
    # (average with weights and returned=, cov, corrcoef, ptp, diff with
    # prepend/append, cumulative_sum/prod with include_initial,
    # histogram_bin_edges, searchsorted with sorter=, trim_zeros,
    # sort_complex); elementwise helpers (nan_to_num, isposinf, isreal,
    # real_if_close, angle, degrees, sinc, unwrap, packbits/unpackbits,
    # polyval & co, piecewise, fromfunction, geomspace/logspace,
    # array_equiv, asarray_chkfinite); shape forms (fliplr/flipud,
    # rollaxis, dstack, hsplit/vsplit/dsplit, broadcast_arrays, concat,
    # unstack, permute_dims, matrix_transpose, .mT, asfortranarray); and
    # method forms (view(dtype), reshape/ravel/flatten/copy with order=,
    # take/repeat/clip/compress/trace/nonzero/searchsorted/put/swapaxes/
    # squeeze/transpose/cumprod/var/dot as methods, setflags(write=False),
    # tobytes through frombuffer)
    def lib(self, ns):
        r = self.r
        choices = (
            (self.lib_grids, 8), (self.lib_keys, 6), (self.lib_stats, 10),
            (self.lib_elem, 10), (self.lib_shape, 8), (self.lib_methods, 12))
        return self.one_of(ns, choices)

    def lib_write_next(self, a):
        """A write through name a on the next line (when NumPy made it a
        writable array)."""
        self.queue.append(lambda ns: self.write(ns, a) if isinstance(
            ns.get(a), numpy.ndarray) and ns[a].flags.writeable else self.create(ns))

    def small_shape(self, nd=None, lo=1, hi=6):
        r = self.r
        nd = r.randint(1, 3) if nd is None else nd
        return tuple(r.randint(lo, hi) for _ in range(nd))

    def lib_grids(self, ns):
        r = self.r
        a = self.new()
        k = r.random()
        if k < 0.2:
            shape = self.small_shape(r.randint(0, 3), 0 if r.random() < 0.1 else 1)
            kw = []
            if r.random() < 0.4:
                kw.append(f"dtype='{r.choice(('int32', 'int8', 'uint8', 'float64', 'int64'))}'")
            if r.random() < 0.3:
                kw.append('sparse=True')
            i = r.randint(0, max(0, len(shape) - 1))
            return f"{a} = np.indices({', '.join([repr(shape)] + kw)})[{i}]"
        if k < 0.4:
            parts = []
            for _ in range(r.randint(1, 3)):
                lo, hi = r.randint(-3, 2), r.randint(-1, 6)
                st = r.choice(('', ':2', ':-1', f":{r.randint(1, 6)}j", ':0.5'))
                parts.append(f"{lo}:{hi}{st}")
            g = r.choice(('mgrid', 'ogrid'))
            if len(parts) == 1:
                return f"{a} = np.{g}[{parts[0]}]"
            return f"{a} = np.{g}[{', '.join(parts)}][{r.randint(0, len(parts) - 1)}]"
        if k < 0.6:
            dims = self.small_shape(r.randint(1, 3))
            size = math.prod(dims)
            x = self.pick(ns, lambda w: w.dtype.kind in 'iu' and 0 < w.size <= 5000)
            if x is not None and r.random() < 0.5:
                idx = f"np.abs({x}) % {size + (1 if r.random() < 0.05 else 0)}"
            else:
                idx = repr([r.randint(0, size - 1 + (r.random() < 0.05)) for _ in range(
                    r.randint(1, 6))]) if r.random() < 0.8 else str(r.randint(0, size - 1))
            order = r.choice(('', ", order='F'", ", order='C'"))
            return f"{a} = np.unravel_index({idx}, {dims}{order})" \
                f"[{r.randint(0, len(dims) - 1)}]"
        if k < 0.75:
            dims = self.small_shape(r.randint(1, 3))
            n = r.randint(1, 6)
            mode = r.choice(('raise', 'wrap', 'clip'))
            lists = [[r.randint(-2, d + 1) if mode != 'raise' or r.random() < 0.05
                      else r.randint(0, d - 1) for _ in range(n)] for d in dims]
            kw = [f"mode='{mode}'"] if r.random() < 0.7 else []
            if len(dims) > 1 and r.random() < 0.2:
                kw = [f"mode={tuple(r.choice(('raise', 'wrap', 'clip')) for _ in dims)}"]
            if r.random() < 0.3:
                kw.append("order='F'")
            return f"{a} = np.ravel_multi_index({tuple(lists)}, {dims}{''.join(', ' + w for w in kw)})"
        if k < 0.88:
            n, m = r.randint(0, 6), r.randint(0, 6)
            kk = r.randint(-3, 3)
            dt = r.choice(('', ", dtype='int32'", ", dtype=bool", ", dtype='float32'"))
            return r.choice((f"{a} = np.tri({n}, {m}, {kk}{dt})", f"{a} = np.tri({n}{dt})",
                             f"{a} = np.identity({n}{dt})"))
        x = self.pick(ns, lambda w: w.ndim <= 2 and 0 < w.size <= 400 and w.dtype.kind != 'b')
        if x is None:
            return self.create(ns)
        if r.random() < 0.5:
            src = x if ns[x].ndim == 1 else f"{x}.ravel()"
            kw = f", {r.randint(0, 5)}" if r.random() < 0.6 else ''
            if r.random() < 0.4:
                kw += ', increasing=True'
            return f"{a} = np.vander({src}{kw})"
        return f"{a} = np.diagflat({x}{f', {r.randint(-3, 3)}' if r.random() < 0.5 else ''})"

    def lib_keys(self, ns):
        r = self.r
        k = r.random()
        if k < 0.3:
            x = self.pick_w(ns)
            if x is None or ns[x].ndim < 2:
                return self.lib_grids(ns)
            v = ns[x]
            val = r.choice((self.scalar(v.dtype.name), repr([r.randint(-3, 9) for _ in range(
                r.randint(1, 4))]), f"np.arange({r.randint(1, 5)})"))
            if v.dtype.kind in 'iub' and val.startswith(('np.nan', 'np.inf', '-np.inf')):
                val = '7'
            wrap = ', wrap=True' if r.random() < 0.3 else ''
            return f"np.fill_diagonal({x}, {val}{wrap})  # check"
        x, v, _ = self.arg(ns, lambda w: w.ndim == 2, any_else=True)
        n, m = (v.shape + (1, 1))[:2] if v.ndim == 2 else (r.randint(1, 5), r.randint(1, 5))
        kk = r.randint(-2, 2)
        key = r.choice((f"np.triu_indices_from({x}, {kk})", f"np.tril_indices_from({x}, k={kk})",
                        f"np.triu_indices({n}, {kk}, {m})", f"np.tril_indices({n}, {kk}, {m})",
                        f"np.diag_indices_from({x})", f"np.diag_indices({min(n, m)}, {v.ndim})",
                        f"np.triu_indices({n + r.randint(0, 2)})" if n <= 300 else
                        f"np.tril_indices({n}, {kk}, {m})"))
        if k < 0.65 or not v.flags.writeable:
            return f"{self.new()} = {x}[{key}]"
        if k < 0.85:
            return f"{x}[{key}] = {self.value_text(ns, v)}  # check"
        return f"{x}[{key}] {r.choice(('+=', '*=', '-='))} {r.choice(('1', '2', 'True'))}  # check"

    def value_text(self, ns, v):
        """A scalar of v's kind, or one that does not fit (rarely)."""
        r = self.r
        if r.random() < 0.1:
            return self.scalar()
        return {'b': 'True', 'i': '-4', 'u': '9', 'f': '2.5', 'c': '(1-2j)'}[v.dtype.kind]

    def lib_stats(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 200_000)
        nd = v.ndim
        k = r.random()
        if k < 0.18:
            kw = []
            ax = self.axis(nd, allow_tuple=r.random() < 0.3)
            if ax is not None:
                kw.append(f"axis={ax}")
            if r.random() < 0.6 and nd:
                wdt = r.choice(('float64', 'int64', 'float32', 'int8', 'bool'))
                if isinstance(ax, int) and r.random() < 0.5 and -nd <= ax < nd:
                    wshape = (v.shape[ax],)
                else:
                    wshape = v.shape if r.random() < 0.95 else v.shape[1:]
                kw.append(f"weights=np.asarray(data({r.randrange(1 << 30)}, {wshape}, "
                          f"'{wdt}', 0))")
                if r.random() < 0.3:
                    kw.append('returned=True')
            if r.random() < 0.2:
                kw.append('keepdims=True')
            line = f"np.average({', '.join([x] + kw)})"
            return f"{a} = {line}[{r.randint(0, 1)}]" if 'returned' in line else f"{a} = {line}"
        if k < 0.3:
            if nd > 2 or v.size > 20_000:
                return f"{a} = np.ptp({x})"
            f = r.choice(('cov', 'cov', 'corrcoef'))
            kw = []
            if r.random() < 0.3:
                kw.append('rowvar=False')
            if nd == 2 and v.shape[1 if kw else 0] > 300:
                kw = ['rowvar=False'] if not kw else []     # (variables)**2 results
                if v.shape[1 if kw else 0] > 300:
                    return f"{a} = np.ptp({x})"
            if f == 'cov':
                if r.random() < 0.2:
                    kw.append('bias=True')
                if r.random() < 0.2:
                    kw.append(f"ddof={r.randint(0, 2)}")
                nobs = (v.shape[0] if 'rowvar' in ' '.join(kw) else v.shape[-1]) if nd else 1
                if r.random() < 0.2:
                    kw.append(f"fweights={[r.randint(0, 3) for _ in range(nobs)]}")
                if r.random() < 0.2:
                    kw.append(f"aweights=np.asarray(data({r.randrange(1 << 30)}, ({nobs},), "
                              f"'float64', 0))")
            if r.random() < 0.2:
                y = self.pick(ns, lambda w: w.shape == v.shape) or x
                kw.insert(0, y)
            return f"{a} = np.{f}({', '.join([x] + kw)})"
        if k < 0.4:
            ax = self.axis(nd, allow_tuple=True)
            kw = [f"axis={ax}"] if ax is not None else []
            if r.random() < 0.3:
                kw.append('keepdims=True')
            return f"{a} = np.ptp({', '.join([x] + kw)})"
        if k < 0.55:
            if nd == 0:
                return f"{a} = np.diff({x})"
            ax = r.randrange(-nd, nd)
            kw = [f"n={r.randint(0, 3)}", f"axis={ax}"]
            for side in ('prepend', 'append'):
                if r.random() < 0.5:
                    sh = list(v.shape)
                    sh[ax] = r.randint(1, 2)
                    kw.append(f"{side}=" + (self.scalar(v.dtype.name) if r.random() < 0.4 else
                                            f"np.asarray(data({r.randrange(1 << 30)}, "
                                            f"{tuple(sh)}, '{v.dtype.name}', 0))"))
            return f"{a} = np.diff({', '.join([x] + kw)})"
        if k < 0.7:
            f = r.choice(('cumulative_sum', 'cumulative_sum', 'cumulative_prod'))
            kw = []
            if nd != 1 or r.random() < 0.5:
                kw.append(f"axis={r.randrange(-nd, nd) if nd else 0}")
            if r.random() < 0.4:
                kw.append('include_initial=True')
            if r.random() < 0.2:
                kw.append(f"dtype='{self.dtype(NUMERIC)}'")
            return f"{a} = np.{f}({', '.join([x] + kw)})"
        if k < 0.78:
            if v.dtype.kind == 'c' or v.size > 50_000:
                return f"{a} = np.sort_complex({self.one_d(ns, x)})"
            bins = r.choice(('5', "'auto'", "'sturges'", "'fd'", "'sqrt'", '[0, 1, 4]', '1'))
            rng = ", range=(-3, 5)" if r.random() < 0.3 else ''
            if bins.startswith("'") and not rng:
                # an estimator's bin count grows with the range over the
                # spread: wide data of a small spread asks for billions
                with numpy.errstate(all='ignore'):
                    fin = v[numpy.isfinite(v)] if v.dtype.kind == 'f' else v
                    if fin.size and float(numpy.ptp(fin.astype('float64'))) > 1000:
                        rng = ", range=(-3, 5)"
            return f"{a} = np.histogram_bin_edges({x}, bins={bins}{rng})"
        if k < 0.9:
            if v.dtype.kind == 'c':
                return f"{a} = np.trim_zeros({self.one_d(ns, x)})"
            u = self.one_d(ns, x)
            w = self.pick(ns, lambda w: w.dtype.kind in 'iuf' and w.size <= 5000) or x
            side = r.choice(('', ", side='right'", ", side='left'"))
            srt = r.choice(('', ', sorter=np.argsort(__U__, kind=\'stable\')'))
            srt = srt.replace('__U__', u)
            return f"{a} = np.searchsorted({u}, {w}{side}{srt})" if srt else \
                f"{a} = np.searchsorted(np.sort({u}), {w}{side})"
        u = self.one_d(ns, x)
        trim = r.choice(('', ", 'f'", ", 'b'", ", trim='fb'"))
        return f"{a} = np.trim_zeros({u}{trim})"

    def lib_elem(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 200_000)
        nd = v.ndim
        k = r.random()
        if k < 0.15:
            kw = []
            for key, val in (('nan', '-1.0'), ('posinf', '1e30'), ('neginf', '0')):
                if r.random() < 0.3:
                    kw.append(f"{key}={val}")
            if r.random() < 0.25 and v.dtype.kind in 'fc' and v.flags.writeable:
                return f"np.nan_to_num({', '.join([x, 'copy=False'] + kw)})  # check"
            return f"{a} = np.nan_to_num({', '.join([x] + kw)})"
        if k < 0.3:
            f = r.choice(('isposinf', 'isneginf', 'isreal', 'iscomplex', 'real_if_close',
                          'angle', 'degrees', 'radians', 'deg2rad', 'rad2deg', 'sinc',
                          'isrealobj', 'iscomplexobj'))
            if f == 'angle' and r.random() < 0.4:
                return f"{a} = np.angle({x}, deg=True)"
            return f"{a} = np.{f}({x})"
        if k < 0.4:
            if v.dtype.kind not in 'iuf' or nd == 0:
                return f"{a} = np.unwrap(np.atleast_1d({x}).real.astype(float))"
            kw = []
            if r.random() < 0.3:
                kw.append(f"discont={r.choice(('1.0', '4', 'np.pi'))}")
            if r.random() < 0.3:
                kw.append(f"period={r.choice(('6', '10.0', '2 * np.pi'))}")
            if r.random() < 0.4:
                kw.append(f"axis={r.randrange(-nd, nd)}")
            return f"{a} = np.unwrap({', '.join([x] + kw)})"
        if k < 0.55:
            if v.dtype == numpy.uint8 and r.random() < 0.7:
                kw = []
                if nd and r.random() < 0.5:
                    kw.append(f"axis={r.randrange(-nd, nd)}")
                if r.random() < 0.3 and v.size:
                    # (NumPy 2.4.6 pads an empty input's count with
                    # uninitialised memory: small_tiles seed 684923368)
                    kw.append(f"count={r.randint(-9, 17)}")
                if r.random() < 0.3:
                    kw.append("bitorder='little'")
                return f"{a} = np.unpackbits({', '.join([x] + kw)})"
            src = x if v.dtype.kind in 'biu' or r.random() < 0.1 else f"{x} > 0" \
                if v.dtype.kind != 'c' else f"{x}.real > 0"
            kw = []
            if nd and r.random() < 0.6:
                kw.append(f"axis={r.randrange(-nd, nd)}")
            if r.random() < 0.3:
                kw.append("bitorder='little'")
            line = f"np.packbits({', '.join([src] + kw)})"
            return f"{a} = np.unpackbits({line})" if r.random() < 0.2 else f"{a} = {line}"
        if k < 0.68:
            p = [r.randint(-3, 3) for _ in range(r.randint(0, 4))]
            f = r.choice(('polyval', 'polyval', 'polyadd', 'polymul', 'polyder', 'polyint',
                          'polysub'))
            # (the coefficients at most 50: polyval of a whole array at its
            # own points is len(x) passes over it, minutes under emulation)
            u = self.one_d(ns, x, cap=50)
            if f == 'polyval':
                return f"{a} = np.polyval({p if r.random() < 0.6 else u}, {x})"
            if f in ('polyder', 'polyint'):
                return f"{a} = np.{f}({u}{f', {r.randint(0, 2)}' if r.random() < 0.5 else ''})"
            return f"{a} = np.{f}({u}, {p})"
        if k < 0.8:
            if v.dtype.kind == 'c':
                conds = [f"{x}.real < 0", f"{x}.real > 2"]
            elif v.dtype.kind == 'b':
                conds = [x, f"~{x}"]
            else:
                conds = [f"{x} < 0", f"{x} > 2", f"{x} == 1"][:r.randint(1, 3)]
            funcs = [r.choice(('lambda t: -t', 'lambda t: t * 2', '7', '0', 'lambda t: t + 1',
                               'lambda t: t[::-1]'))
                     for _ in range(len(conds) + (r.random() < 0.5))]
            return f"{a} = np.piecewise({x}, [{', '.join(conds)}], [{', '.join(funcs)}])"
        if k < 0.88:
            shape = self.small_shape(r.randint(1, 3))
            body = r.choice(('i * 3 + j', 'i - j', '(i + 1) * (j + 2)', 'i == j', 'i % 2 + j'))
            names = ', '.join('ijk'[:len(shape)])
            body = body if len(shape) >= 2 else body.replace('j', '1')
            if len(shape) == 3:
                body += ' + k'
            dt = r.choice(("", ", dtype=int", ", dtype='float32'", ", dtype='int16'"))
            return f"{a} = np.fromfunction(lambda {names}: {body}, {shape}{dt})"
        if k < 0.94:
            f = r.choice(('geomspace', 'logspace'))
            lo, hi = r.choice((1, 2, -1, 0.5, 10)), r.choice((1000, 3, -8, 2.5, 1))
            if f == 'logspace':
                lo, hi = r.randint(-2, 2), r.randint(-1, 4)
            kw = f", num={r.randint(0, 9)}"
            if r.random() < 0.3:
                kw += ', endpoint=False'
            if f == 'logspace' and r.random() < 0.3:
                kw += f", base={r.choice((2, 2.0, 10))}"
            return f"{a} = np.{f}({lo}, {hi}{kw})"
        if r.random() < 0.5:
            y = self.pick(ns, lambda w: fits(w.shape, v.shape)) or x
            return f"{a} = np.asarray(np.array_equiv({x}, {y}))"
        return f"{a} = np.asarray_chkfinite({x})"

    def lib_shape(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        nd = v.ndim
        k = r.random()
        if k < 0.15:
            f = r.choice(('fliplr', 'flipud'))
            line = f"{a} = np.{f}({x})"
            if r.random() < 0.4 and v.flags.writeable:
                self.lib_write_next(a)
            return line
        if k < 0.25:
            if nd == 0:
                return f"{a} = np.rollaxis({x}, 0)"
            return f"{a} = np.rollaxis({x}, {r.randint(-nd, nd - 1)}" \
                f"{f', {r.randint(-nd, nd)}' if r.random() < 0.6 else ''})"
        if k < 0.35:
            y = self.pick(ns, lambda w: w.shape[:1] == v.shape[:1] and w.ndim == nd) or x
            return f"{a} = np.dstack([{x}, {y}])" if r.random() < 0.5 else \
                f"{a} = np.concat([{x}, {y}], axis={r.choice(('None', '0', '-1'))})"
        if k < 0.5:
            f, ax = r.choice((('hsplit', 1), ('vsplit', 0), ('dsplit', 2)))
            d = v.shape[ax] if nd > ax else 1
            if f == 'hsplit' and nd == 1:
                d = v.shape[0]
            if r.random() < 0.5:
                n = r.choice([q for q in range(1, 5) if d % q == 0] + [3])
                return f"{a} = np.{f}({x}, {n})[0]"
            idx = sorted(self.int_list(d + 2, r.randint(0, 3), lo=-d))
            return f"{a} = np.{f}({x}, {idx})[{r.randint(0, len(idx))}]"
        if k < 0.6:
            y = self.pick(ns, lambda w: fits(w.shape, v.shape) or fits(v.shape, w.shape)) or x
            return f"{a} = np.broadcast_arrays({x}, {y})[{r.randint(0, 1)}]"
        if k < 0.7:
            if nd == 0:
                return f"{a} = np.unstack(np.atleast_1d({x}))[0]"
            ax = r.randrange(-nd, nd)
            n = v.shape[ax]
            line = f"{a} = np.unstack({x}, axis={ax})[{r.randint(0, n - 1) if n else 0}]"
            if n and r.random() < 0.3 and v.flags.writeable:
                self.lib_write_next(a)
            return line
        if k < 0.85:
            if nd < 2 and r.random() < 0.8:
                axes = list(range(nd))
                r.shuffle(axes)
                return f"{a} = np.permute_dims({x}, {tuple(axes)})"
            line = r.choice((f"{a} = np.matrix_transpose({x})", f"{a} = {x}.mT",
                             f"{a} = np.permute_dims({x}, {tuple(r.sample(range(nd), nd))})"))
            if r.random() < 0.3 and v.flags.writeable:
                self.lib_write_next(a)
            return line
        f = r.choice(('asfortranarray', 'ascontiguousarray', 'asanyarray', 'conj'))
        line = f"{a} = np.{f}({x})" if f != 'conj' or r.random() < 0.5 else f"{a} = {x}.conj()"
        if r.random() < 0.4 and v.flags.writeable:
            self.lib_write_next(a)
        return line

    def lib_methods(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        nd = v.ndim
        k = r.random()
        if k < 0.15:
            # view(dtype): the same bytes as another type (the last axis
            # scaled by the item sizes; ValueError where it is not
            # contiguous or does not divide)
            dt = r.choice([t for t in DTYPES if t != 'bool'] + ['bool'])
            if v.dtype.kind != 'b' and numpy.dtype(dt).kind == 'b':
                dt = 'uint8'        # bools of any byte (2, 0x80): undefined
            if self.ranks > 1 and numpy.dtype(dt).itemsize != v.dtype.itemsize:
                # on several ranks NumPy's view of a gathered copy (deviation
                # 17 of docs/guide/deviations.md): the same item size only
                dt = {1: 'int8', 2: 'uint16', 4: 'float32', 8: 'int64',
                      16: 'complex128'}[v.dtype.itemsize]
            line = f"{a} = {x}.view('{dt}')" if r.random() < 0.7 else \
                f"{a} = {x}.view(dtype=np.{dt})"
            if r.random() < 0.3 and v.flags.writeable:
                self.lib_write_next(a)
            return line
        if k < 0.32:
            order = r.choice(("'F'", "'A'", "'K'", "'C'"))
            if nd == 0 or r.random() < 0.4:
                f = r.choice(('ravel', 'flatten', 'copy'))
                line = f"{a} = {x}.{f}({order if r.random() < 0.5 else 'order=' + order})"
            else:
                shape = self.reshape_to(v.shape)
                line = r.choice((f"{a} = {x}.reshape({shape}, order={order[:3]})",
                                 f"{a} = np.reshape({x}, {shape}, order={order[:3]})"))
            if r.random() < 0.4 and v.flags.writeable:
                self.lib_write_next(a)
            return line
        if k < 0.4:
            if not v.flags.writeable:
                return f"{a} = {x}.copy()"
            self.lib_write_next(x)
            return f"{x}.setflags(write=False)"
        if k < 0.48:
            order = r.choice(('', "order='F'", "'C'", "order='A'"))
            dt = r.choice(('uint8', v.dtype.name))
            y = x if r.random() < 0.6 else f"{x}[::-1]"
            return f"{a} = np.frombuffer({y}.tobytes({order}), dtype='{dt}')"
        if nd == 0:
            return f"{a} = {x}.{r.choice(('copy', 'squeeze', 'transpose', 'conj'))}()"
        ax = r.randrange(-nd, nd)
        d = v.shape[ax]
        idx = self.int_list(d, r.randint(0, 4), lo=-d) if d else []
        cond = [r.random() < 0.5 for _ in range(r.randint(0, d + 1))]
        forms = [
            f"{a} = {x}.take({idx}, axis={ax})",
            f"{a} = {x}.take({idx}{f', mode={chr(39)}wrap{chr(39)}' if d else ''})",
            f"{a} = {x}.repeat({r.randint(0, 3)}, axis={ax})",
            f"{a} = {x}.repeat({[r.randint(0, 2) for _ in range(d)]}, axis={ax})",
            f"{a} = {x}.clip({r.choice(('0', '-1', 'None'))}, {r.choice(('3', '1', 'None'))})",
            f"{a} = {x}.clip(max={r.randint(0, 4)})",
            f"{a} = {x}.compress({cond}, axis={ax})",
            f"{a} = {x}.nonzero()[{r.randint(0, nd - 1)}]",
            f"{a} = {x}.swapaxes({r.randrange(-nd, nd)}, {ax})",
            f"{a} = {x}.squeeze()",
            f"{a} = {x}.transpose({', '.join(map(str, r.sample(range(nd), nd)))})",
            f"{a} = {x}.cumprod(axis={ax})",
            f"{a} = {x}.var(axis={ax}, ddof={r.randint(0, 2)})",
            f"{a} = {x}.argsort(axis={ax}, kind='stable')",
            # (of sorted values: an unsorted array's answer is the search's own)
            f"{a} = np.sort({x}).searchsorted({r.randint(-2, 6)})" if nd == 1 else
            f"{a} = np.sort({x}.ravel()).searchsorted({x}.ravel()[::-1], side='right')",
        ]
        if nd >= 2:
            forms.append(f"{a} = {x}.trace({r.randint(-2, 2)})")
            forms.append(f"{a} = {x}.diagonal({r.randint(-2, 2)}, {r.randrange(nd)}, "
                         f"{r.randrange(nd)})")
        y = self.pick(ns, lambda w: w.ndim >= 1 and w.shape[0] == v.shape[-1] and w.size <= 20_000)
        if y is not None and v.size <= 20_000:
            forms.append(f"{a} = {x}.dot({y})")
        if v.flags.writeable and v.size:
            vals = [r.randint(-3, 9) for _ in range(r.randint(1, 3))]
            forms.append(f"{x}.put({self.int_list(v.size, r.randint(0, 3), lo=-v.size)}, {vals}"
                         f"{r.choice(('', ', mode=' + chr(39) + 'clip' + chr(39)))})  # check")
        return r.choice(forms)

    def wide(self, ns):
        r = self.r
        choices = (
            (self.nanfunc, 10), (self.order_stat, 8), (self.index_fn, 12),
            (self.ufunc_method, 10), (self.contract, 10), (self.pad, 5), (self.counting, 6),
            (self.int_edges, 8), (self.shifts, 4), (self.cast_modes, 5), (self.copyto, 5),
            (self.view_write, 6), (self.repeat_write, 5), (self.mask_write, 5),
            (self.linalg, 5), (self.fft, 5), (self.sort_kinds, 5))
        return self.one_of(ns, choices)

    # -- API steps (session 26): functions and forms real programs use that
    # the steps above do not make: the accumulate kinds with out= and
    # dtype=, flatiter reads and writes, fill with scalars of other kinds,
    # insert/delete/append, unique with its returns and axis=, resize,
    # interp, convolve/correlate, cross, gradient, trapezoid, meshgrid,
    # histogram2d/dd, apply_along_axis, ediff1d, the set functions, rot90,
    # block, column_stack, atleast_*d, split at index lists,
    # sliding_window_view, matmul/vecdot/matvec/vecmat (out=), ufuncs with
    # where= and out=, round(decimals=), ldexp/frexp/modf/bitwise_count
    def api(self, ns):
        r = self.r
        choices = (
            (self.api_accumulate, 8), (self.api_flat, 8), (self.api_fill, 4),
            (self.api_insert, 6), (self.api_unique, 5), (self.api_resize, 3),
            (self.api_numeric, 10), (self.api_sets, 6), (self.api_shape, 8),
            (self.api_products, 6), (self.api_where_out, 6), (self.api_ufuncs, 7))
        return self.one_of(ns, choices)

    def one_d(self, ns, x, cap=4000):
        """Source for a 1-d array made of x (itself, ravelled, a reversed or
        stepped view), at most cap elements."""
        r = self.r
        v = ns[x]
        t = x if v.ndim == 1 else f"{x}.ravel()"
        if v.size > cap:
            t = f"{t}[:{cap}]"
        k = r.random()
        if k < 0.2:
            t = f"{t}[::-1]"
        elif k < 0.3:
            t = f"{t}[::2]"
        return t

    def out_name(self, shape, dt):
        """A fresh out= array (its line) of shape and dtype."""
        o = self.new()
        return o, f"{o} = np.{self.r.choice(('zeros', 'ones'))}({tuple(shape)}, dtype='{dt}')"

    def api_accumulate(self, ns):
        r = self.r
        x, _, a = self.arg(ns, lambda w: w.size <= 300_000)
        t, v = self.view_expr(ns, x)
        uf = r.choice(('maximum', 'minimum', 'fmax', 'fmin', 'logical_and', 'logical_or',
                       'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'subtract',
                       'add', 'multiply'))
        nd = v.ndim
        kw = [] if nd == 0 else [f"axis={r.randrange(-nd, nd)}"]
        if nd and r.random() < 0.1:
            kw = ["axis=None"] if nd == 1 or r.random() < 0.5 else [f"axis={nd}"]
        dt = None
        if r.random() < 0.3:
            dt = r.choice(('int64', 'float64', 'float32', 'bool', 'int8', 'uint8', 'int32',
                           'complex128'))
            if not self.safe_cast_ok(v, dt):
                dt = 'float64'
            kw.append(f"dtype='{dt}'")
        if r.random() < 0.4 and nd:
            try:
                with numpy.errstate(all='ignore'), warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    res = eval(f"numpy.{uf}.accumulate(v, {', '.join(kw)})",
                               {'numpy': numpy, 'v': v})
            except Exception:       # noqa: BLE001
                res = None
            if res is not None:
                odt = res.dtype.name if r.random() < 0.6 else self.dtype(NUMERIC)
                if res.dtype.kind in 'fc' and numpy.dtype(odt).kind in 'iub' and \
                        not self.safe_cast_ok(res, odt):
                    odt = res.dtype.name
                o, mk = self.out_name(res.shape, odt)
                kw.append(f"out={o}")
                return f"{mk}; np.{uf}.accumulate({', '.join([t] + kw)})  # check"
        return f"{a} = np.{uf}.accumulate({', '.join([t] + kw)})"

    def api_flat(self, ns):
        r = self.r
        x, v, _ = self.arg(ns, lambda w: w.size >= 1)
        vw = x
        if v.ndim >= 1 and r.random() < 0.6:
            vw = r.choice((f"{x}.T", f"{x}[::-1]", f"{x}[..., ::2]", f"{x}[1:]")
                          if v.ndim else (x,))
        vv = eval(vw, {x: v})
        n = vv.size
        k = r.random()
        if k < 0.3 and n:
            i = r.randrange(-n, n) if r.random() < 0.97 else n
            idx = str(i)
        elif k < 0.55:
            idx = self.slice_text(n)
        elif k < 0.75:
            idx = repr(self.int_list(n, r.randint(0, 5)))
            if r.random() < 0.3:
                idx = f"np.array({idx}, dtype='int64')"
        elif k < 0.9:
            if n <= 4000:
                idx = f"np.asarray(data({r.randrange(1 << 30)}, ({n},), 'bool'))"
            else:
                idx = f"({vw} != 0).ravel()"
        else:
            # (not `vw > 0` of a 0-d array: a NumPy bool scalar, which
            # flatiter refuses, against ndtile's 0-d array, which it takes)
            # (nor a True 0-d index of an empty array: NumPy 2.4 reads the
            # element past its end, garbage)
            idx = r.choice(('...', '()', '[]') + (('np.array(True)',) if n else ()) +
                           ((f'{vw} > 0',) if vv.ndim and vv.dtype.kind != 'c' else ()))
        write = r.random() < 0.45 and (v.flags.writeable or not self.avoid)
        if write:
            val = self.scalar_int() if v.dtype.kind in 'iub' else r.choice(('1.5', '-2.0', '7'))
            if r.random() < 0.3:
                val = r.choice(("[1, 2, 3]", "[]", "np.arange(4)", f"[{val}, 0]"))
            return f"{vw}.flat[{idx}] = {val}  # check"
        a = self.new()
        if r.random() < 0.1:
            return f"{a} = np.asarray({vw}.flat)"
        return f"{a} = {vw}.flat[{idx}]"

    def api_fill(self, ns):
        r = self.r
        x, v, _ = self.arg(ns, write=True)
        vw = x
        if v.ndim and r.random() < 0.4:
            vw = r.choice((f"{x}[::2]", f"{x}.T", f"{x}[::-1]", f"{x}[..., 1:]"))
        val = self.scalar()
        if r.random() < 0.2:
            val = r.choice(("np.array(3)", "np.array([2.5])", "np.float32(1e39)",
                            "np.int64(2**40)", "np.uint8(200)", "-1"))
        return f"{vw}.fill({val})  # check"

    def api_insert(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 200_000)
        nd = v.ndim
        f = r.choice(('insert', 'delete', 'append'))
        ax = None if nd == 0 or r.random() < 0.3 else r.randrange(-nd, nd)
        d = v.size if ax is None else v.shape[ax]
        axkw = f", axis={ax}" if ax is not None or r.random() < 0.5 else ''
        if f == 'append':
            if ax is None:
                y = self.scalar() if r.random() < 0.4 else (
                    self.pick(ns, lambda w: w.size <= 1000) or '[1, 2]')
                return f"{a} = np.append({x}, {y}{axkw})"
            same = self.pick(ns, lambda w: w.ndim == nd and all(
                p == q for i, (p, q) in enumerate(zip(w.shape, v.shape)) if i != ax % nd))
            return f"{a} = np.append({x}, {same or x}{axkw})"
        k = r.random()
        if k < 0.35:
            obj = str(r.randint(-d, d) if f == 'insert' else (r.randint(-d, d - 1) if d else 0))
            if r.random() < 0.03:
                obj = str(d + 2)
        elif k < 0.55:
            obj = f"slice({r.choice(('None', str(r.randint(-d, d))))}, None, " \
                  f"{r.choice((1, 2, -1, 3))})"
        elif k < 0.85:
            obj = repr(self.int_list(d + (1 if f == 'insert' else 0), r.randint(0, 4)))
        else:
            if f == 'delete':
                obj = f"np.asarray(data({r.randrange(1 << 30)}, ({d + r.choice((0, 0, 0, 1))},)," \
                      f" 'bool'))"
            else:
                obj = f"np.array({self.int_list(d + 1, r.randint(0, 3))}, dtype='int64')"
        if f == 'delete':
            return f"{a} = np.delete({x}, {obj}{axkw})"
        val = self.scalar() if r.random() < 0.6 else repr([r.randint(-5, 9) for _ in range(
            r.randint(1, 3))])
        if not self.safe_cast_ok(numpy.asarray(eval(val, {'np': numpy})), v.dtype):
            val = '1'
        return f"{a} = np.insert({x}, {obj}, {val}{axkw})"

    # _nan_order: with equal_nan=False (unique_inverse's, the array API's)
    # every NaN is a value of its own, and where each lands among the others
    # is NumPy's unstable argsort's choice (quicksort unless return_index
    # asks for mergesort), so the inverse indices of NaN elements are not
    # NumPy's promise: such an input has its NaNs replaced first.
    def api_unique(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 200_000 and (w.dtype.kind != 'c' or
                                                               r.random() < 0.2))
        t = x if r.random() < 0.7 or not v.ndim else f"{x}[::-1]"
        if r.random() < 0.2:
            f = r.choice(('unique_values', 'unique_counts', 'unique_inverse', 'unique_all'))
            if f == 'unique_values':
                return f"{a} = np.sort(np.unique_values({t}))"
            fld = {'unique_counts': ('values', 'counts'),
                   'unique_inverse': ('values', 'inverse_indices'),
                   'unique_all': ('values', 'indices', 'inverse_indices', 'counts')}[f]
            fd = r.choice(fld)
            if f == 'unique_inverse' and fd == 'inverse_indices' and v.dtype.kind in 'fc':
                t = f"np.nan_to_num({t})"   # (NaNs are distinct there: _nan_order)
            return f"{a} = np.{f}({t}).{fd}"
        kw = []
        rets = [k for k in ('return_index', 'return_inverse', 'return_counts')
                if r.random() < 0.5]
        kw += [f"{k}=True" for k in rets]
        if v.ndim and r.random() < 0.4:
            kw.append(f"axis={r.randrange(-v.ndim, v.ndim) if r.random() < 0.95 else v.ndim}")
        if r.random() < 0.15:
            kw.append("equal_nan=False")
        if 'equal_nan=False' in kw and 'return_inverse' in rets and \
                'return_index' not in rets and v.dtype.kind in 'fc':
            t = f"np.nan_to_num({t})"       # (_nan_order)
        call = f"np.unique({', '.join([t] + kw)})"
        if rets:
            call += f"[{r.randint(0, len(rets))}]"
        return f"{a} = {call}"

    def api_resize(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 200_000)
        shape = tuple(r.randint(0, 5) for _ in range(r.randint(0, 3)))
        if r.random() < 0.3:
            shape = (v.size + r.randint(-2, 3),)
        if r.random() < 0.5:
            s = shape if len(shape) != 1 or r.random() < 0.5 else shape[0]
            return f"{a} = np.resize({x}, {s})"
        # in place, on an array that owns its data and that nothing else views
        b = f"{a} = {x}.copy(); {a}.resize({shape}, refcheck=False)"
        if r.random() < 0.3:
            b = f"{a} = {x}.copy(); {a}.resize({', '.join(map(str, shape)) or '()'}, " \
                f"refcheck=False)"
        return b

    def api_numeric(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size >= 1 and w.dtype.kind != 'b' or r.random() < 0.1)
        k = r.random()
        nd = v.ndim
        if k < 0.15:
            # interp: xp increasing (sorted small data), fp of any kind
            # (with period=, xp mod period is sorted by NumPy's unstable
            # argsort: equal samples would take either fp; so distinct xp
            # and a period beyond their range)
            n = r.randint(1, 8)
            per = r.random() < 0.15
            xs, xdt = r.randrange(1 << 30), r.choice(('float64', 'int64', 'float32'))
            xp = f"np.{'unique' if per else 'sort'}(np.asarray(data({xs}, ({n},), '{xdt}', 0)))"
            if per:
                n = numpy.unique(data(xs, (n,), xdt, 0)).size
            fp = f"np.asarray(data({r.randrange(1 << 30)}, ({n if r.random() < 0.97 else n + 1},)," \
                 f" '{r.choice(('float64', 'float32', 'complex128', 'int32'))}', 0))"
            src = x if v.dtype.kind != 'c' else f"{x}.real"
            kw = []
            if r.random() < 0.3:
                kw.append(f"left={r.choice(('-1.0', 'np.nan', '5'))}")
            if r.random() < 0.3:
                kw.append(f"right={r.choice(('-1.0', 'np.inf', '7'))}")
            if per:
                kw.append(f"period={r.choice(('300.0', '360'))}")
            return f"{a} = np.interp({', '.join([src, xp, fp] + kw)})"
        if k < 0.3:
            f = r.choice(('convolve', 'correlate'))
            u = self.one_d(ns, x, cap=3000)
            m = r.randint(0, 9)
            w = f"np.asarray(data({r.randrange(1 << 30)}, ({m},), '{self.dtype(NUMERIC)}', 0))"
            if r.random() < 0.5:
                u, w = w, u
            mode = r.choice(('', ", mode='full'", ", mode='same'", ", mode='valid'",
                             ", 'same'"))
            return f"{a} = np.{f}({u}, {w}{mode})"
        if k < 0.4:
            d = r.choice((2, 3, 3, 3, 4))
            lead = tuple(r.randint(1, 4) for _ in range(r.randint(0, 2)))
            p = f"np.asarray(data({r.randrange(1 << 30)}, {lead + (d,)}, " \
                f"'{self.dtype(NUMERIC)}', 0))"
            q = f"np.asarray(data({r.randrange(1 << 30)}, {(r.choice((d, 2, 3)),)}, " \
                f"'{self.dtype(NUMERIC)}', 0))"
            kw = ''
            if r.random() < 0.2 and lead:
                kw = f", axisa={r.choice((0, -1))}, axisb=-1, axisc={r.choice((0, -1))}"
            if v.ndim and v.shape[-1] in (2, 3) and r.random() < 0.5:
                p = x
            return f"{a} = np.cross({p}, {q}{kw})"
        if k < 0.55:
            kw = []
            if nd and r.random() < 0.5:
                kw.append(f"axis={r.randrange(-nd, nd)}")
            if r.random() < 0.3:
                kw.append(f"edge_order={r.choice((1, 2))}")
            sp = []
            if r.random() < 0.3:
                sp.append(r.choice(('2.0', '0.5', '3')))
            elif r.random() < 0.2 and nd == 1:
                sp.append(f"np.cumsum(np.abs(np.asarray(data({r.randrange(1 << 30)}, "
                          f"{v.shape}, 'float64', 0))) + 1)")
            res = f"np.gradient({', '.join([x] + sp + kw)})"
            if nd > 1 and not any(s.startswith('axis') for s in kw):
                res += f"[{r.randrange(nd)}]"
            return f"{a} = {res}"
        if k < 0.65:
            kw = []
            if nd and r.random() < 0.5:
                kw.append(f"axis={r.randrange(-nd, nd)}")
            if r.random() < 0.3:
                kw.append(f"dx={r.choice(('2.0', '0.5', '3'))}")
            elif r.random() < 0.3 and nd:
                ax = int(kw[0][5:]) if kw else -1
                kw.append(f"x=np.arange({v.shape[ax]}) * 1.5")
            return f"{a} = np.trapezoid({', '.join([x] + kw)})"
        if k < 0.75:
            u = self.one_d(ns, x, cap=300)
            y = self.pick(ns, lambda w: w.size <= 300) or x
            w = self.one_d(ns, y, cap=300)
            kw = []
            if r.random() < 0.4:
                kw.append(f"indexing='{r.choice(('ij', 'xy'))}'")
            if r.random() < 0.3:
                kw.append("sparse=True")
            if r.random() < 0.3:
                kw.append("copy=False")
            args = [u, w] if r.random() < 0.8 else [u]
            return f"{a} = np.meshgrid({', '.join(args + kw)})[{r.randrange(len(args))}]"
        if k < 0.85:
            n = min(v.size, 5000)
            src = f"{x}.ravel()[:{n}]" if v.dtype.kind != 'c' else f"{x}.real.ravel()[:{n}]"
            y = f"np.asarray(data({r.randrange(1 << 30)}, ({n if r.random() < 0.97 else n + 1},)," \
                f" '{r.choice(('float64', 'int32', 'float32'))}', {r.choice((0, 1))}))"
            kw = []
            if r.random() < 0.5:
                kw.append(f"bins={r.choice(('3', '[2, 4]', '[[0, 1, 5], [-3, 0, 2, 9]]', '10'))}")
            if r.random() < 0.3:
                kw.append("range=[[-5, 5], [0, 10]]")
            if r.random() < 0.2:
                kw.append("density=True")
            if r.random() < 0.2:
                kw.append(f"weights=np.asarray(data({r.randrange(1 << 30)}, ({n},), "
                          f"'float64', 0))")
            if r.random() < 0.5:
                return f"{a} = np.histogram2d({src}, {y}, {', '.join(kw)})" \
                       f"[{r.randint(0, 2)}]".replace(', )', ')')
            return f"{a} = np.histogramdd(np.stack([{src}, {y}], axis=1), {', '.join(kw)})" \
                   f"[0]".replace(', )', ')')
        if k < 0.93:
            if nd == 0:
                return f"{a} = np.apply_along_axis(np.sum, 0, {x})"
            f = r.choice(('np.sum', 'np.max', 'np.sort', 'np.cumsum', 'np.diff',
                          'lambda r: r[::-1]', 'lambda r: r[:2] * 2', 'np.argmax'))
            if f == 'np.max' and 0 in v.shape:
                f = 'np.sum'
            return f"{a} = np.apply_along_axis({f}, {r.randrange(-nd, nd)}, {x})"
        kw = []
        if r.random() < 0.3:
            kw.append(f"to_end={r.choice(('1', '[7, 8]', 'np.array([-1])'))}")
        if r.random() < 0.3:
            kw.append(f"to_begin={r.choice(('0', '[5]', '2.5'))}")
        return f"{a} = np.ediff1d({', '.join([x] + kw)})"

    def api_sets(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 100_000 and (w.dtype.kind != 'c' or
                                                               r.random() < 0.2))
        y = self.pick(ns, lambda w: w.size <= 100_000 and w.dtype.kind != 'c')
        ydt = ns[y].dtype if y else numpy.dtype(self.dtype(NUMERIC))
        if not y:
            y = f"np.asarray(data({r.randrange(1 << 30)}, ({r.randint(0, 9)},), '{ydt.name}', 0))"
        f = r.choice(('isin', 'isin', 'setdiff1d', 'intersect1d', 'union1d', 'setxor1d'))
        # (NumPy's isin of 64-bit integers against floats finds an element
        # whose float64 equals another element's: a NumPy rounding bug,
        # deviations.md; ndtile's answer is exact)
        if f in ('isin', 'setdiff1d') and \
                {v.dtype.kind, ydt.kind} & {'f', 'c'} and \
                any(d.kind in 'iu' and d.itemsize == 8 for d in (v.dtype, ydt)):
            f = r.choice(('intersect1d', 'union1d', 'setxor1d'))
        kw = []
        if f == 'isin':
            if r.random() < 0.3:
                kw.append("invert=True")
            # (kind='table' allocates the range of y's values: small types
            # only, NumPy's table of a uint32 range is 4 GB)
            if r.random() < 0.2 and v.dtype.itemsize <= 2 and v.dtype.kind in 'iub' and \
                    getattr(ns.get(y), 'dtype', numpy.dtype('f')).kind in 'iub' and \
                    ns[y].dtype.itemsize <= 2:
                kw.append(f"kind='{r.choice(('sort', 'table'))}'")
        elif f in ('setdiff1d', 'intersect1d', 'setxor1d') and r.random() < 0.2:
            kw.append("assume_unique=False")
        if f == 'intersect1d' and r.random() < 0.3:
            return f"{a} = np.intersect1d({x}, {y}, return_indices=True)" \
                   f"[{r.randint(0, 2)}]"
        return f"{a} = np.{f}({', '.join([x, y] + kw)})"

    def api_shape(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        nd = v.ndim
        k = r.random()
        if k < 0.2:
            kw = [str(r.randint(-2, 5))] if r.random() < 0.8 else []
            if nd >= 2 and r.random() < 0.4:
                p, q = r.sample(range(-nd, nd), 2)
                kw.append(f"axes=({p}, {q})")
            line = f"{a} = np.rot90({', '.join([x] + kw)})"
            if r.random() < 0.4 and v.flags.writeable:
                # a write through the view on the next line
                self.queue.append(lambda ns: self.write(ns, a) if isinstance(
                    ns.get(a), numpy.ndarray) and ns[a].flags.writeable
                    else self.create(ns))
            return line
        if k < 0.35:
            y = self.pick(ns, lambda w: w.shape == v.shape) or x
            if nd == 0 or r.random() < 0.3:
                return f"{a} = np.block([{x}, {y}])"
            if nd == 1:
                return f"{a} = np.block([{x}, {y}[::-1], {self.scalar()}])" \
                    if r.random() < 0.2 else f"{a} = np.block([[{x}], [{y}]])"
            return f"{a} = np.block([[{x}, {y}], [{y}, {x}]])"
        if k < 0.45:
            y = self.pick(ns, lambda w: w.ndim <= 2 and (w.ndim == 0 or w.shape[0] == (
                v.shape[0] if nd else 1))) or x
            return f"{a} = np.column_stack([{x}, {y}])"
        if k < 0.6:
            f = r.choice(('atleast_1d', 'atleast_2d', 'atleast_3d'))
            if r.random() < 0.3:
                y = self.pick(ns) or x
                return f"{a} = np.{f}({x}, {y})[{r.randint(0, 1)}]"
            line = f"{a} = np.{f}({x})"
            if r.random() < 0.3 and v.flags.writeable:
                self.queue.append(lambda ns: self.write(ns, a) if isinstance(
                    ns.get(a), numpy.ndarray) and ns[a].flags.writeable
                    else self.create(ns))
            return line
        if k < 0.75:
            if nd == 0:
                return f"{a} = np.array_split({x}, [1])"
            ax = r.randrange(-nd, nd)
            d = v.shape[ax]
            idx = sorted(self.int_list(d + 2, r.randint(0, 4), lo=-d))
            if r.random() < 0.3:
                r.shuffle(idx)
            f = r.choice(('array_split', 'split'))
            return f"{a} = np.{f}({x}, {idx}, axis={ax})[{r.randint(0, len(idx))}]"
        # sliding_window_view (reads)
        if nd == 0 or v.size > 200_000:
            return f"{a} = np.atleast_1d({x})"
        ax = r.randrange(-nd, nd)
        w = r.randint(1, 4)
        if r.random() < 0.05:
            w = v.shape[ax] + 1          # ValueError
        kw = f", axis={ax}" if r.random() < 0.7 else ''
        if not kw:
            w = tuple(min(s, r.randint(1, 3)) for s in v.shape)
        view = f"np.lib.stride_tricks.sliding_window_view({x}, {w}{kw})"
        return r.choice((f"{a} = {view}", f"{a} = {view}.sum(axis=-1)",
                         f"{a} = {view}.max(axis=-1)" if all(v.shape) else f"{a} = {view}",
                         f"{a} = {view}[::2].copy()"))

    def api_products(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.ndim >= 1 and w.size <= 200_000 and
                           (w.dtype.kind != 'b' or r.random() < 0.2))
        kdim = v.shape[-1]
        dt = v.dtype.name if r.random() < 0.6 else self.dtype(NUMERIC)
        k = r.random()
        if k < 0.4:
            m = r.choice((1, 2, 3, 5))
            shape = (kdim, m) if r.random() < 0.8 else (kdim,)
            y = f"np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', 0))"
            try:
                res = numpy.matmul(v, numpy.zeros(shape, dt))
            except Exception:       # noqa: BLE001
                return f"{a} = np.matmul({x}, {y})"
            odt = res.dtype.name if r.random() < 0.7 else self.dtype(NUMERIC)
            oshape = res.shape if r.random() < 0.95 else res.shape + (1,)
            o, mk = self.out_name(oshape, odt)
            return f"{mk}; np.matmul({x}, {y}, out={o})  # check"
        f = r.choice(('vecdot', 'vecdot', 'matvec', 'vecmat'))
        if f == 'vecdot':
            shape = (kdim,) if r.random() < 0.6 else v.shape
            y = f"np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', 0))"
            kw = ''
            if r.random() < 0.3:
                kw = f", axis={r.randrange(-v.ndim, v.ndim)}"
                y = f"np.asarray(data({r.randrange(1 << 30)}, {v.shape}, '{dt}', 0))"
            return f"{a} = np.vecdot({x}, {y}{kw})" if r.random() < 0.7 else \
                f"{a} = np.vecdot({y}, {x}{kw})"
        if v.ndim < 2:
            mat = f"np.asarray(data({r.randrange(1 << 30)}, ({r.randint(1, 4)}, {kdim}), " \
                  f"'{dt}', 0))"
            return f"{a} = np.matvec({mat}, {x})" if f == 'matvec' else \
                f"{a} = np.vecmat({x}, {mat}.T)"
        vec = f"np.asarray(data({r.randrange(1 << 30)}, " \
              f"({kdim if f == 'matvec' else v.shape[-2]},), '{dt}', 0))"
        return f"{a} = np.{f}({x}, {vec})" if f == 'matvec' else f"{a} = np.vecmat({vec}, {x})"

    def api_where_out(self, ns):
        r = self.r
        x, v, _ = self.arg(ns, lambda w: w.size <= 500_000)
        m = f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, 'bool'))"
        if r.random() < 0.3:
            m = f"{x} > 0" if v.dtype.kind != 'c' else f"{x}.real > 0"
        if r.random() < 0.1:
            m = r.choice(('True', 'False'))
        unary = r.random() < 0.4
        f = r.choice(UNARY[:4] + ('sqrt', 'floor', 'square', 'logical_not', 'invert')) if unary \
            else r.choice(BINARY[:14])
        args = [x] if unary else [x, self.operand(ns, x)]
        if not unary and f in ('greater', 'greater_equal', 'less', 'less_equal', 'equal',
                               'not_equal') and v.dtype.kind in 'iu' and \
                re.fullmatch(r"-?\d+", args[1].strip("() ")) and \
                not numpy.iinfo(v.dtype).min <= int(args[1].strip("() ")) <= \
                numpy.iinfo(v.dtype).max:
            # NumPy 2.4.6 segfaults in its masked loop of an integer array
            # against a Python int out of its dtype's range with where=
            # (sim2 seed 674925603; ndtile's answer is right): no where= here
            return f"{self.new()} = np.{f}({', '.join(args)})"
        try:
            with numpy.errstate(all='ignore'), warnings.catch_warnings():
                warnings.simplefilter('ignore')
                res = eval(f"numpy.{f}({', '.join(args)})", {'numpy': numpy, 'np': numpy,
                                                            'data': data, **{
                                                                k: ns[k] for k in names_of(ns)}})
        except Exception:           # noqa: BLE001
            return f"{self.new()} = np.{f}({', '.join(args)})"
        if not isinstance(res, numpy.ndarray) or res.dtype == numpy.float16:
            return f"{self.new()} = np.{f}({', '.join(args)})"
        out = self.pick(ns, lambda w: w.shape == res.shape and w.flags.writeable)
        if out is None or r.random() < 0.5 or (
                res.dtype.kind in 'fc' and ns[out].dtype.kind in 'iub' and
                not self.safe_cast_ok(res, ns[out].dtype)):
            odt = res.dtype.name if r.random() < 0.8 else self.dtype(NUMERIC)
            if res.dtype.kind in 'fc' and numpy.dtype(odt).kind in 'iub' and \
                    not self.safe_cast_ok(res, odt):
                odt = res.dtype.name
            o, mk = self.out_name(res.shape, odt)
            return f"{mk}; np.{f}({', '.join(args)}, out={o}, where={m})  # check"
        if out is not None and numpy.may_share_memory(ns[out], v) and \
                not (ns[out].flags.c_contiguous and v.flags.c_contiguous):
            # NumPy 2.4's in-place loops on overlapping non-contiguous arrays
            # (docs/fuzzing.md, deviations)
            o, mk = self.out_name(res.shape, res.dtype.name)
            return f"{mk}; np.{f}({', '.join(args)}, out={o}, where={m})  # check"
        return f"np.{f}({', '.join(args)}, out={out}, where={m})  # check"

    def api_ufuncs(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        k = r.random()
        if k < 0.3:
            d = r.choice((-2, -1, 0, 1, 2, 3))
            if d < 0 and v.dtype.kind in 'iu' and v.size and (
                    int(v.max()) + 10 ** -d // 2 > numpy.iinfo(v.dtype).max or
                    int(v.min()) - 10 ** -d // 2 < numpy.iinfo(v.dtype).min):
                # NumPy rounds integers to negative decimals through float64
                # and casts back: a result out of the dtype's range is the
                # float-to-int cast whose value NumPy's own loops choose by
                # the array's length (deviation 11)
                d = -d
            f = r.choice((f"np.round({x}, {d})", f"np.round({x}, decimals={d})",
                          f"{x}.round({d})", f"np.around({x}, {d})", f"np.round({x})"))
            return f"{a} = {f}"
        if k < 0.45:
            e = f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, " \
                f"'{r.choice(('int32', 'int64', 'int8', 'int16'))}', 0))"
            if r.random() < 0.3:
                e = r.choice(('3', '-2', '0', '1100', '-1100'))
            return f"{a} = np.ldexp({x}, {e})"
        if k < 0.65:
            return f"{a} = np.{r.choice(('frexp', 'modf'))}({x})[{r.randint(0, 1)}]"
        if k < 0.8:
            return f"{a} = np.bitwise_count({x})"
        f = r.choice(('sign', 'heaviside', 'copysign', 'nextafter', 'spacing'))
        if f in ('sign', 'spacing'):
            return f"{a} = np.{f}({x})"
        return f"{a} = np.{f}({x}, {self.operand(ns, x)})"

    def pick_p(self, ns, pred):
        """A name that satisfies pred, or else any name."""
        return self.pick(ns, pred) or self.pick(ns)

    def view_expr(self, ns, x):
        """Source for x or a strided view of it, and the NumPy value."""
        r = self.r
        v = ns[x]
        k = r.random()
        if v.ndim == 0 or k < 0.5:
            return x, v
        if k < 0.65:
            t = f"{x}.T"
        elif k < 0.8:
            t = f"{x}[::-1]"
        elif k < 0.9:
            t = f"{x}[..., ::2]"
        else:
            t = f"{x}[1:]"
        return t, eval(t, {x: v})

    def kw_axis(self, nd, tuple_ok=True, none_ok=True):
        ax = self.axis(nd, allow_none=none_ok, allow_tuple=tuple_ok)
        return [] if ax is None and self.r.random() < 0.5 else [f"axis={ax}"]

    def nanfunc(self, ns):
        r = self.r
        x, _, a = self.arg(ns, lambda w: w.dtype.kind in 'fc' or r.random() < 0.3, any_else=True)
        t, v = self.view_expr(ns, x)
        f = r.choice(('nansum', 'nanprod', 'nanmean', 'nanmax', 'nanmin', 'nanargmax',
                      'nanargmin', 'nanstd', 'nanvar', 'nancumsum', 'nancumprod', 'nanmedian'))
        single = f in ('nanargmax', 'nanargmin', 'nancumsum', 'nancumprod')
        kw = self.kw_axis(v.ndim, tuple_ok=not single)
        if f not in ('nancumsum', 'nancumprod') and r.random() < 0.3:
            kw.append("keepdims=True")
        if f in ('nanstd', 'nanvar') and r.random() < 0.3:
            kw.append(f"ddof={r.randint(0, 2)}")
        if f in ('nansum', 'nanmean', 'nancumsum') and r.random() < 0.2:
            kw.append(f"dtype='{r.choice(('float64', 'complex128', 'float32'))}'")
        return f"{a} = np.{f}({', '.join([t] + kw)})"

    def order_stat(self, ns):
        r = self.r
        x, _, a = self.arg(ns, lambda w: w.dtype.kind != 'c' or r.random() < 0.2, any_else=True)
        t, v = self.view_expr(ns, x)
        f = r.choice(('median', 'percentile', 'quantile', 'nanmedian', 'nanpercentile',
                      'nanquantile'))
        args = [t]
        if 'median' not in f:
            q = r.choice((0, 25, 50, 99.5, 100, [10, 90], [0, 33, 100], 101, -1))
            if 'quantile' in f:
                q = [p / 100 for p in q] if isinstance(q, list) else q / 100
            args.append(repr(q))
        args += self.kw_axis(v.ndim)
        if r.random() < 0.3 and not (self.avoid and v.ndim == 0):
            args.append("keepdims=True")
        if 'median' not in f and r.random() < 0.6:
            args.append("method='%s'" % r.choice((
                'linear', 'lower', 'higher', 'nearest', 'midpoint', 'inverted_cdf',
                'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf',
                'hazen', 'weibull', 'median_unbiased', 'normal_unbiased')))
        return f"{a} = np.{f}({', '.join(args)})"

    def int_list(self, d, n, lo=None, bad=0.03):
        """n indices into an axis of length d (rarely one out of range)."""
        r = self.r
        lo = -d if lo is None else lo
        out = [r.randint(lo, d - 1) for _ in range(n)] if d else []
        if r.random() < bad:
            out.append(d + r.randint(0, 2))
        return out

    def index_fn(self, ns):
        r = self.r
        k = r.random()
        x, v, a = self.arg(ns, write=0.3 < k < 0.5)
        nd = v.ndim
        if k < 0.15:
            mode = r.choice(('raise', 'raise', 'wrap', 'clip'))
            if nd and r.random() < 0.6:
                ax = r.randrange(-nd, nd)
                d = v.shape[ax]
                idx = self.int_list(d, r.randint(0, 4), bad=0.03 if mode == 'raise' else 0.5)
                if mode != 'raise' and d == 0:
                    mode = 'raise'
                return f"{a} = np.take({x}, {idx}, axis={ax}, mode='{mode}')"
            idx = self.int_list(v.size, r.randint(0, 4), bad=0.03 if mode == 'raise' else 0.5)
            if mode != 'raise' and v.size == 0:
                mode = 'raise'
            if r.random() < 0.3 and idx:
                return f"{a} = np.take({x}, {idx[0]})"
            return f"{a} = np.take({x}, {idx}, mode='{mode}')"
        if k < 0.3:
            if nd == 0:
                return f"{a} = np.take_along_axis({x}, np.array(0), axis=None)"
            ax = r.randrange(-nd, nd)
            d = v.shape[ax]
            shape = list(v.shape)
            shape[ax] = r.randint(0, 3)
            idx = f"np.asarray(data({r.randrange(1 << 30)}, {tuple(shape)}, 'int64', 0)) % {d}" \
                if d else f"np.zeros({tuple(shape)}, dtype='int64')"
            return f"{a} = np.take_along_axis({x}, {idx}, axis={ax})"
        if k < 0.4:
            mode = r.choice(('raise', 'wrap', 'clip'))
            if v.size == 0:
                mode = 'raise'
            idx = self.int_list(v.size, r.randint(0, 4), bad=0.03 if mode == 'raise' else 0.5)
            vals = self.scalar() if r.random() < 0.4 else \
                repr([r.randint(-5, 9) for _ in range(r.randint(1, 3))])
            return f"np.put({x}, {idx}, {vals}, mode='{mode}')  # check"
        if k < 0.5:
            if nd == 0:
                return f"np.putmask({x}, {x} != 0, 1)  # check"
            if r.random() < 0.5:
                ax = r.randrange(-nd, nd)
                shape = list(v.shape)
                shape[ax] = 1 if r.random() < 0.5 else r.randint(1, 2)
                d = v.shape[ax]
                idx = f"np.asarray(data({r.randrange(1 << 30)}, {tuple(shape)}, 'int64', 0)) % " \
                      f"{d}" if d else f"np.zeros({tuple(shape)}, dtype='int64')"
                return f"np.put_along_axis({x}, {idx}, {self.scalar_int()}, axis={ax})  # check"
            m = f"{x} > 0" if v.dtype.kind not in 'bc' else \
                f"np.asarray(data({r.randrange(1 << 30)}, {v.shape}, 'bool'))"
            vals = repr([r.randint(-5, 9) for _ in range(r.randint(0, 3))])
            f = r.choice(('place', 'putmask'))
            if f == 'putmask' and vals == '[]':
                vals = '[1]'
            return f"np.{f}({x}, {m}, {vals})  # check"
        if k < 0.6:
            if nd == 0:
                return f"{a} = np.compress([True], {x})"
            ax = r.choice((None, r.randrange(-nd, nd)))
            d = v.size if ax is None else v.shape[ax]
            cond = [r.random() < 0.5 for _ in range(max(0, d + r.choice((0, 0, 0, -1, 1))))]
            if len(cond) > 60:
                cond = f"np.asarray(data({r.randrange(1 << 30)}, ({len(cond)},), 'bool'))"
            return f"{a} = np.compress({cond}, {x}, axis={ax})"
        if k < 0.7:
            y = self.operand(ns, x)
            n = 3
            mode = r.choice(('raise', 'raise', 'wrap', 'clip'))
            kind = 0 if mode == 'raise' else 1
            idx = f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, " \
                  f"'uint8', {kind})) % {n + (1 if mode != 'raise' or r.random() < 0.05 else 0)}"
            return f"{a} = np.choose({idx}, [{x}, {y}, {self.scalar()}], mode='{mode}')"
        if k < 0.8:
            y = self.operand(ns, x)
            c1 = f"{x} > 0" if v.dtype.kind != 'c' else f"{x}.real > 0"
            c2 = f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, 'bool'))"
            return f"{a} = np.select([{c1}, {c2}], [{x}, {y}], default={self.scalar()})"
        if k < 0.9:
            c = f"{x} != 0" if r.random() < 0.5 else \
                f"np.asarray(data({r.randrange(1 << 30)}, {v.shape}, 'bool'))"
            return f"{a} = np.extract({c}, {x})"
        # argwhere / flatnonzero
        t, _ = self.view_expr(ns, x)
        return f"{a} = np.{r.choice(('argwhere', 'flatnonzero'))}({t})"

    def scalar_int(self):
        return repr(self.r.choice((0, 1, -1, 7, 100)))

    def ufunc_method(self, ns):
        r = self.r
        x, _, a = self.arg(ns)
        t, v = self.view_expr(ns, x)
        uf = r.choice(('add', 'multiply', 'maximum', 'minimum', 'logical_and', 'logical_or',
                       'logical_xor', 'bitwise_xor', 'bitwise_or', 'subtract', 'fmax', 'fmin'))
        k = r.random()
        nd = v.ndim
        if k < 0.35:
            kw = self.kw_axis(nd, tuple_ok=True)
            if r.random() < 0.25:
                kw.append("keepdims=True")
            if uf in ('add', 'multiply') and r.random() < 0.2:
                kw.append(f"dtype='{r.choice(('int64', 'float64', 'float32'))}'")
            return f"{a} = np.{uf}.reduce({', '.join([t] + kw)})"
        if k < 0.5:
            kw = [] if nd == 0 else [f"axis={r.randrange(-nd, nd)}"]
            if r.random() < 0.25:
                # (the loop dtype; NumPy's TypeError where it has no loop)
                kw.append(f"dtype='{r.choice(('int64', 'float64', 'float32', 'bool', 'int8'))}'")
            return f"{a} = np.{uf}.accumulate({', '.join([t] + kw)})"
        if k < 0.65:
            if v.size > 2000:
                t = f"{x}.ravel()[:40]"
            y = self.pick(ns, lambda w: w.size <= 200) or self.scalar()
            return f"{a} = np.{uf}.outer({t}, {y})"
        if k < 0.85:
            # (a writeable target only: NumPy 2.4's ufunc.at writes into a
            # read-only array, ndtile raises; docs/fuzzing.md, deviations)
            w = self.pick(ns, lambda w: w.flags.writeable)
            if w is None:
                return self.create(ns)
            wv = ns[w]
            # an integer or bool target takes integer values only: the
            # ufunc runs in float for a float value and casts the result
            # back (0 - 1.5 into uint32 is undefined in C)
            ints = wv.dtype.kind in 'iub'
            val = self.scalar()
            if ints or not self.safe_cast_ok(numpy.asarray(eval(val, {'np': numpy})), wv.dtype):
                val = self.scalar_int()
            if wv.ndim == 0:
                return f"np.{uf}.at({w}, (), {val})  # check"
            d = wv.shape[0]
            idx = self.int_list(d, r.randint(0, 6))
            if len(idx) > 1 and r.random() < 0.7:
                idx[-1] = idx[0]        # a repeated index: applied twice
            val = val if r.random() < 0.6 else \
                f"np.asarray(data({r.randrange(1 << 30)}, {(len(idx),) + wv.shape[1:]}, " \
                f"'{self.dtype(INTS if ints else DTYPES)}', 0))"
            return f"np.{uf}.at({w}, {idx}, {val})  # check"
        if nd == 0:
            return f"{a} = np.{uf}.reduceat({t}, [0])"
        ax = r.randrange(-nd, nd)
        d = v.shape[ax]
        idx = sorted(self.int_list(d, r.randint(1, 4), lo=0)) if d else [0]
        if r.random() < 0.3:
            r.shuffle(idx)
        return f"{a} = np.{uf}.reduceat({t}, {idx}, axis={ax})"

    def small_data(self, shape, dt=None):
        r = self.r
        dt = dt or (r.choice(('int64', 'float64', 'complex128', 'int16', 'float32', 'bool')))
        return f"np.asarray(data({r.randrange(1 << 30)}, {tuple(shape)}, '{dt}', 0))"

    def contract(self, ns):
        """einsum, tensordot, outer, inner, kron, trace, diagonal, diag, triu, tril."""
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 100_000 or r.random() < 0.1)
        nd = v.ndim
        k = r.random()
        if k < 0.3:
            subs = {0: ['->', ',->'],
                    1: ['i->', 'i->i', 'i,i->', 'i,j->ij', 'i,i->i'],
                    2: ['ij->ji', 'ij->', 'ij->i', 'ij->j', 'ii->i', 'ii', 'ij,j->i', 'ij,jk->ik',
                        'ij,ij->ij', 'ji', '...j->...'],
                    3: ['ijk->kji', 'ijk->j', '...i->...', 'ijk,k->ij', 'iij->j']}.get(
                        nd, ['...->...', '...i->i'])
            s = r.choice(subs)
            if s.startswith('ii') and v.shape[0] == 0:
                # NumPy 2.4's einsum('ii->i') of a (0, n) array returns n
                # uninitialised values (docs/fuzzing.md, deviations)
                s = 'ij->ji'
            ins = s.split('->')[0].split(',')
            ops = [x]
            if len(ins) == 2:
                dims = {c: v.shape[i] for i, c in enumerate(ins[0])} if '.' not in ins[0] else {}
                shape = tuple(dims.get(c, r.randint(1, 4)) for c in ins[1])
                if math.prod(shape) * max(v.size, 1) > 400_000:
                    shape = tuple(dims.get(c, 1) for c in ins[1])
                ops.append(self.small_data(shape))
            return f"{a} = np.einsum('{s}', {', '.join(ops)})"
        if k < 0.42:
            n = r.randint(0, min(2, nd))
            if v.size > 20_000:
                n = max(n, min(nd, 1))
            shape = v.shape[nd - n:] + (r.randint(1, 3),)
            return f"{a} = np.tensordot({x}, {self.small_data(shape)}, axes={n})"
        if k < 0.5:
            if v.size > 2000:
                return f"{a} = np.outer({x}.ravel()[:50], {self.small_data((r.randint(0, 5),))})"
            return f"{a} = np.outer({x}, {self.small_data((r.randint(0, 5),))})"
        if k < 0.58:
            shape = ((v.shape[-1],) if nd else ()) if r.random() < 0.5 else \
                ((r.randint(1, 3),) + ((v.shape[-1],) if nd else ()))
            return f"{a} = np.inner({x}, {self.small_data(shape)})"
        if k < 0.64:
            if v.size > 2000:
                return f"{a} = np.kron({x}.ravel()[:30], {self.small_data((2,))})"
            shape = tuple(r.randint(1, 3) for _ in range(r.randint(0, 3)))
            return f"{a} = np.kron({x}, {self.small_data(shape)})"
        if nd < 2:
            if nd == 1 and v.size <= 300:
                return f"{a} = np.diag({x}, {r.randint(-2, 2)})"
            return f"{a} = np.trace({x})"     # ValueError below 2-d
        ax1, ax2 = r.sample(range(-nd, nd), 2) if r.random() < 0.4 else (0, 1)
        off = r.randint(-2, 2)
        if k < 0.74:
            kw = f", dtype='{r.choice(('int64', 'float64', 'float32'))}'" \
                if r.random() < 0.2 else ''
            return f"{a} = np.trace({x}, {off}, {ax1}, {ax2}{kw})"
        if k < 0.84:
            return f"{a} = np.diagonal({x}, {off}, {ax1}, {ax2})" if r.random() < 0.7 else \
                f"{a} = {x}.diagonal({off})"
        if k < 0.88 and nd == 2:
            return f"{a} = np.diag({x}, {off})"
        return f"{a} = np.{r.choice(('triu', 'tril'))}({x}, {off})"

    def pad(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 1_000_000)
        nd = v.ndim
        k = r.random()
        if k < 0.3:
            pw = repr(r.randint(0, 3))
        elif k < 0.6:
            pw = repr((r.randint(0, 3), r.randint(0, 2)))
        else:
            pw = repr(tuple((r.randint(0, 2), r.randint(0, 3)) for _ in range(nd)))
        if r.random() < 0.03:
            pw = '-1'                                   # ValueError
        mode = r.choice(('constant', 'constant', 'edge', 'reflect', 'symmetric', 'wrap',
                         'linear_ramp', 'maximum', 'minimum', 'mean', 'median'))
        kw = ''
        if mode == 'constant' and r.random() < 0.6:
            kw = f", constant_values={r.choice(('3', '(1, 2)', '-1'))}"
        elif mode in ('reflect', 'symmetric') and r.random() < 0.4:
            kw = ", reflect_type='odd'"
        elif mode == 'linear_ramp' and r.random() < 0.5:
            kw = f", end_values={r.choice(('5', '(-2, 4)'))}"
        elif mode in ('maximum', 'minimum', 'mean', 'median') and r.random() < 0.4:
            kw = f", stat_length={r.randint(1, 3)}"
        return f"{a} = np.pad({x}, {pw}, mode='{mode}'{kw})"

    def counting(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        k = r.random()
        if k < 0.35:
            t = f"np.abs({x}).ravel()" if v.dtype.kind in 'iu' and r.random() < 0.8 else \
                f"{x}.ravel()" if v.ndim != 1 else x
            kw = ''
            if r.random() < 0.4:
                kw += f", minlength={r.randint(0, 12)}"
            if r.random() < 0.3:
                kw += f", weights={self.small_data((v.size,), r.choice(('float64', 'int64')))}" \
                    if v.size <= 100_000 else ''
            if v.dtype.kind in 'iu' and v.size:
                # keep the counts' length small (NumPy makes 1e10 zeros
                # lazily, ndtile's memory budget refuses: deviation 6)
                t = f"{t} % 97"
            return f"{a} = np.bincount({t}{kw})"
        if k < 0.7:
            bins = r.choice(('10', '3', '1', '[0, 1, 2.5, 4]', '[-3, 0, 3]', "'auto'", '0'))
            kw = f", range=({r.randint(-5, 0)}, {r.randint(1, 6)})" if r.random() < 0.4 else ''
            if r.random() < 0.2 and v.size <= 100_000:
                kw += f", weights={self.small_data(v.shape, 'float64')}"
            if r.random() < 0.2:
                kw += ", density=True"
            return f"{a} = np.histogram({x}, bins={bins}{kw})[{r.randint(0, 1)}]"
        bins = r.choice(([0, 1, 2.5, 4], [-3, 0, 3], [5, 1, -1], [1], [], [0, 2, 1]))
        return f"{a} = np.digitize({x}, {bins}, right={r.random() < 0.5})"

    def int_edges(self, ns):
        """Integer division, remainder and power by zero and negative values,
        and at the integer extremes."""
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.dtype.kind in 'iub' or r.random() < 0.15)
        f = r.choice(('floor_divide', 'remainder', 'fmod', 'power', 'divmod', 'true_divide',
                      'floor_divide', 'remainder'))
        k = r.random()
        if k < 0.4:
            y = r.choice(('0', '-1', '1', '-2', '3', '-128', '2', 'np.int8(-1)', 'np.uint8(0)',
                          'np.int64(-1)', '255'))
        else:
            dt = v.dtype.name if r.random() < 0.6 or v.dtype.kind not in 'iu' else \
                r.choice(INTS)
            y = f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, '{dt}', " \
                f"{r.choice((0, 0, 2))}))"
        if r.random() < 0.3:
            y, x = x, y
        if f == 'divmod':
            return f"{a} = np.divmod({x}, {y})[{r.randint(0, 1)}]"
        if r.random() < 0.3 and f != 'true_divide':
            op = {'floor_divide': '//', 'remainder': '%', 'power': '**'}.get(f, '%')
            return f"{a} = {x} {op} {y}"
        return f"{a} = np.{f}({x}, {y})"

    def shifts(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.dtype.kind in 'iub' or r.random() < 0.1)
        if r.random() < 0.5:
            c = repr(r.choice((0, 1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 100, 127, 200, -1)))
        else:
            c = f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, " \
                f"'{r.choice(('uint8', 'int8', 'int64', 'uint64', v.dtype.name))}', 1))"
            if r.random() < 0.5:
                c = f"({c} % {r.choice((8, 16, 32, 64, 66, 130))})"
        f = r.choice(('<<', '>>', 'left_shift', 'right_shift'))
        if f in ('<<', '>>'):
            return f"{a} = {x} {f} {c}" if r.random() < 0.8 else f"{a} = {c} {f} {x}"
        return f"{a} = np.{f}({x}, {c})"

    def cast_modes(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        dt = self.dtype()
        casting = r.choice(('no', 'equiv', 'safe', 'same_kind', 'unsafe'))
        if casting == 'unsafe' and not self.safe_cast_ok(v, dt):
            casting = 'same_kind'
        if casting == 'same_kind' and numpy.can_cast(v.dtype, dt, 'same_kind') and \
                not self.safe_cast_ok(v, dt):
            casting = 'safe'
        if r.random() < 0.3:
            return f"{a} = np.asarray({x}, dtype='{dt}')" if self.safe_cast_ok(v, dt) else \
                f"{a} = np.asarray({x}, dtype='{v.dtype.name}')"
        return f"{a} = {x}.astype('{dt}', casting='{casting}')"

    def copyto(self, ns):
        r = self.r
        x, v, _ = self.arg(ns, write=True)
        src = self.value_for(ns, x, v.shape)
        casting = r.choice(('same_kind', 'same_kind', 'unsafe', 'safe', 'no'))
        if casting == 'unsafe':
            try:
                sv = ns[src] if src in ns else eval(src, {'np': numpy, 'data': data})
                ok = self.safe_cast_ok(numpy.asarray(sv), v.dtype)
            except Exception:           # noqa: BLE001
                ok = False
            if not ok:
                casting = 'same_kind'
        kw = f", casting='{casting}'"
        if r.random() < 0.6:
            w = f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, 'bool'))" \
                if r.random() < 0.7 else r.choice(('True', 'False'))
            kw += f", where={w}"
        if src in ns and numpy.may_share_memory(ns[src], v):
            src = f"{src}.copy()"
        return f"np.copyto({x}, {src}{kw})  # check"

    def view_write(self, ns):
        """A fresh view (swapaxes or transpose of a slice, diagonal) written
        through on the next line."""
        r = self.r
        x, v, a = self.arg(ns, write=True)
        nd = v.ndim
        if nd >= 2:
            sl = ', '.join(self.slice_text(d) for d in v.shape[:2])
            t = r.choice((f"np.swapaxes({x}[{sl}], 0, 1)", f"{x}[{sl}].T",
                          f"np.moveaxis({x}[{sl}], 0, -1)"))
        elif nd == 1:
            t = f"{x}[{self.slice_text(v.shape[0])}][::-1]"
        else:
            t = f"{x}[...]"
        self.queue.append(lambda ns: self.write(ns, a) if isinstance(ns.get(a), numpy.ndarray)
                          else self.create(ns))
        return f"{a} = {t}"

    def repeat_write(self, ns):
        """Advanced-index writes with repeated indices: plain assignment
        (NumPy: the last value wins) and in-place operators (each element
        once: the operator reads before it writes)."""
        r = self.r
        x, v, _ = self.arg(ns, write=True)
        if v.ndim == 0 or v.shape[0] == 0:
            return f"{x}[...] = {self.scalar_int()}  # check"
        d = v.shape[0]
        i = r.randint(-d, d - 1)
        idx = [i, r.randint(-d, d - 1), i] + ([i] if r.random() < 0.5 else [])
        n = len(idx)
        if r.random() < 0.3:
            idx = f"np.array({idx})"
        if r.random() < 0.5:
            op = r.choice(('+=', '-=', '*=', '|='))
            return f"{x}[{idx}] {op} {self.scalar_int()}  # check"
        val = f"np.arange({n} * {math.prod(v.shape[1:])}).reshape({(n,) + v.shape[1:]})" \
            if r.random() < 0.6 else self.scalar_int()
        return f"{x}[{idx}] = {val}  # check"

    def mask_write(self, ns):
        """a[mask] = value with a mask over the leading axes and a value that
        broadcasts: one row for every selected one, one value per selected
        element, a wrong length (ValueError)."""
        r = self.r
        x, v, _ = self.arg(ns, write=True)
        if v.ndim == 0:
            return f"{x}[{x} != 0] = {self.scalar_int()}  # check"
        k = r.randint(1, v.ndim)
        mshape = v.shape[:k]
        mseed = r.randrange(1 << 30)
        mask = f"np.asarray(data({mseed}, {mshape}, 'bool'))"
        count = int(data(mseed, mshape, 'bool').sum())
        rest = v.shape[k:]
        c = r.random()
        if c < 0.4 and rest:
            shape = rest[r.randint(0, len(rest)):] if r.random() < 0.5 else rest
        elif c < 0.7:
            shape = (count,) + rest
        elif c < 0.85:
            shape = (1,) + rest
        else:
            shape = (count + r.choice((1, -1)),) + rest if count else (2,) + rest
        dt = v.dtype.name if r.random() < 0.7 else self.dtype()
        if not self.safe_cast_ok(numpy.zeros(1, dt), v.dtype):
            dt = v.dtype.name
        return f"{x}[{mask}] = np.asarray(data({r.randrange(1 << 30)}, {tuple(shape)}, " \
               f"'{dt}', 0))  # check"

    def linalg(self, ns):
        """solve, inv, det, norm with well-conditioned matrices (diagonally
        dominant: an ill-conditioned one would make LAPACK's rounding
        anything)."""
        r = self.r
        x = self.pick(ns, lambda w: w.dtype.kind != 'b' and w.size <= 200_000 and
                      bool(numpy.isfinite(w).all()))
        a = self.new()
        k = r.random()
        if x is not None and k < 0.3:
            v = ns[x]
            o = r.choice(('None', '1', '2', 'np.inf', '-np.inf', "'fro'", '0', '3'))
            kw = ''
            if v.ndim >= 2 and r.random() < 0.5:
                kw = f", axis=({r.randrange(v.ndim)}, {r.randrange(v.ndim)})"
                if o in ('0', '3'):
                    o = 'None'
            elif v.ndim >= 1 and r.random() < 0.5:
                kw = f", axis={r.randrange(-v.ndim, v.ndim)}"
            elif v.ndim == 2 and o in ('0', '3'):
                o = 'None'
            elif v.ndim > 2:
                o, kw = 'None', ''
            if o in ("'fro'",) and ('axis=(' not in kw and v.ndim != 2):
                o = 'None'
            if r.random() < 0.2:
                kw += ", keepdims=True"
            return f"{a} = np.linalg.norm({x}, {o}{kw})"
        n = r.randint(1, 5)
        dt = r.choice(('float64', 'float32', 'complex128', 'int64', 'float64'))
        m = f"(np.asarray(data({r.randrange(1 << 30)}, {(n, n)}, '{dt}', 0)) + 40 * np.eye({n}))"
        if k < 0.45:
            return f"{a} = np.linalg.det({m})"
        if k < 0.6:
            return f"{a} = np.linalg.inv({m})"
        if x is not None and ns[x].ndim >= 1 and ns[x].shape[0] <= 6 and ns[x].ndim <= 2:
            v = ns[x]
            m = m.replace(f"{(n, n)}", f"{(v.shape[0],) * 2}").replace(f"np.eye({n})",
                                                                      f"np.eye({v.shape[0]})")
            return f"{a} = np.linalg.solve({m}, {x})"
        b = (n,) + ((r.randint(1, 3),) if r.random() < 0.5 else ())
        return f"{a} = np.linalg.solve({m}, {self.small_data(b)})"

    def fft(self, ns):
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.dtype.kind in 'iufc' and w.size <= 1_000_000 and
                           bool(numpy.isfinite(w).all()))
        f = r.choice(('fft', 'ifft', 'rfft', 'irfft', 'fft', 'rfft', 'hfft', 'fftn', 'ifftn',
                      'rfftn'))
        kw = []
        if f.endswith('n'):
            if v.ndim and r.random() < 0.4:
                axes = sorted(r.sample(range(v.ndim), r.randint(1, min(2, v.ndim))))
                kw.append(f"axes={tuple(axes)}")
        else:
            if v.ndim and r.random() < 0.4:
                kw.append(f"axis={r.randrange(-v.ndim, v.ndim)}")
            if r.random() < 0.3:
                kw.append(f"n={r.choice((1, 2, 5, 8, 16, 0))}")
            ax = int(kw[0][5:]) if kw and kw[0].startswith('axis=') else -1
            if f in ('irfft', 'hfft') and v.ndim and v.shape[ax] == 0:
                # NumPy 2.4's irfft/hfft(n=k) of an empty axis returns
                # uninitialised values (ndtile's zero padding gives zeros)
                kw = [k for k in kw if not k.startswith('n=')]
        if r.random() < 0.3:
            kw.append(f"norm='{r.choice(('ortho', 'forward', 'backward'))}'")
        return f"{a} = np.fft.{f}({', '.join([x] + kw)})"

    def sort_kinds(self, ns):
        r = self.r
        x, v, a = self.arg(ns)
        k = r.random()
        if k < 0.4:
            kind = r.choice(('quicksort', 'mergesort', 'heapsort', 'stable'))
            ax = r.choice((None, -1, 0)) if v.ndim else None
            return f"{a} = np.sort({x}, axis={ax}, kind='{kind}')"
        if k < 0.6:
            ax = r.choice((None, -1, 0)) if v.ndim else None
            return f"{a} = np.argsort({x}, axis={ax}, kind='{r.choice(('stable', 'mergesort'))}')"
        if v.ndim == 0:
            return f"{a} = np.lexsort([{x}])"
        if k < 0.8 and v.ndim >= 2:
            # (its first axis is the keys: a million of them for a big array)
            return f"{a} = np.lexsort({x}" + (f", axis={r.randrange(v.ndim - 1)})"
                                               if r.random() < 0.3 else ")")
        y = self.small_data(v.shape, r.choice(('int8', 'float64', 'bool')))
        return f"{a} = np.lexsort(({x}, {y}))"

    # -- the gaps (session 31): names and forms of ndtile's namespace that no
    # family above makes (found by comparing dir(numpy) with fuzzlib's
    # lines, as for Gen.lib): the array API's aliases, as_strided windows,
    # dtype and shape queries, stable= sorts and partitions at several kth,
    # the set functions of unique inputs, einsum's optimize= and paths,
    # window functions, polydiv, empty_like, ndindex/ndenumerate/fromiter,
    # and take/compress/choose with out= a view of their own input
    def gaps(self, ns):
        return self.one_of(ns, ((self.gap_alias, 10), (self.gap_strided, 6),
                                (self.gap_query, 6), (self.gap_sort, 8), (self.gap_einsum, 5),
                                (self.gap_misc, 6), (self.gap_out_alias, 6)))

    def gap_alias(self, ns):
        """The array API's names of ufuncs (acos, pow, bitwise_invert, ...),
        amax/amin, vdot, conjugate, to_device and argmin as methods."""
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 500_000)
        k = r.random()
        if k < 0.25:
            ints = v.dtype.kind in 'biu' or r.random() < 0.1
            f = r.choice(('bitwise_invert', 'bitwise_not') if ints else (
                'acos', 'asin', 'atan', 'acosh', 'asinh', 'atanh'))
            return f"{a} = np.{f}({x})"
        if k < 0.5:
            f = r.choice(('atan2', 'pow', 'mod', 'bitwise_left_shift', 'bitwise_right_shift'))
            return f"{a} = np.{f}({x}, {self.operand(ns, x)})"
        if k < 0.7:
            kw = self.kw_axis(v.ndim)
            if r.random() < 0.4:
                kw.append("keepdims=True")
            if r.random() < 0.3 or v.size == 0:
                kw.append(f"initial={self.value_text(ns, v)}")
            return f"{a} = np.{r.choice(('amax', 'amin'))}({', '.join([x] + kw)})"
        if k < 0.8:
            y = self.small_data(v.shape, r.choice((v.dtype.name, 'float64', 'complex128')))
            return f"{a} = np.vdot({x}, {y})"
        if k < 0.9 and v.ndim:
            kd = ", keepdims=True" if r.random() < 0.4 else ''
            f = r.choice(('argmin', 'argmax'))
            return f"{a} = {x}.{f}(axis={r.randrange(-v.ndim, v.ndim)}{kd})"
        self.lib_write_next(a)
        f = r.choice(('conjugate()', 'conjugate()', f"to_device({x}.device)"))
        return f"{a} = {x}.{f}"

    def gap_strided(self, ns):
        """as_strided windows over a contiguous copy (overlapping rows, a
        0-stride row), read-only: reduced, copied, stepped; a write raises."""
        r = self.r
        x, v, a = self.arg(ns, lambda w: 1 <= w.size <= 200_000)
        c = self.new()
        n, s = v.size, v.itemsize
        w = r.randint(1, min(n, 9))
        k = r.choice((1, 1, 2, 3))
        shape, strides = ((n - w) // k + 1, w), (s * k, s)
        if r.random() < 0.25:
            shape, strides = (r.randint(0, 4), n), (0, s)
        self.queue.append(lambda ns: f"{self.new()} = " + r.choice((
            f"{a}.sum(axis=1)", f"{a}.max(axis=0)" if v.dtype.kind != 'c' else f"{a}.sum(axis=0)",
            f"{a}.copy()", f"{a}[::2, ::-1] * 2", f"np.cumsum({a}, axis=1)",
            f"{a}.T.copy()")) + "  # check")
        if r.random() < 0.2:
            self.queue.append(lambda ns: f"{a}[0] = 1")     # read-only: ValueError
        return f"{c} = np.ascontiguousarray({x}).reshape(-1); " \
               f"{a} = np.lib.stride_tricks.as_strided({c}, shape={shape}, " \
               f"strides={strides}, writeable=False)"

    def gap_query(self, ns):
        """Dtype and shape queries of arrays (result_type, promote_types,
        can_cast, ndim, size, shape, nbytes, strides of views, isfortran,
        iterable, isscalar); a dtype is compared through an array made of
        it."""
        r = self.r
        x, v, a = self.arg(ns)
        dt = self.dtype()
        k = r.random()
        if k < 0.25:
            return f"{a} = np.zeros(2, dtype=np.result_type({x}, {self.operand(ns, x)}))"
        if k < 0.35:
            return f"{a} = np.zeros(1, np.promote_types({x}.dtype, '{dt}'))"
        if k < 0.5:
            casting = r.choice(('no', 'equiv', 'safe', 'same_kind', 'unsafe'))
            return f"{a} = np.can_cast({x}, '{dt}', casting='{casting}')"
        if k < 0.6:
            ax = f", {r.randrange(-v.ndim, v.ndim)}" if v.ndim and r.random() < 0.5 else ''
            return f"{a} = np.size({x}{ax}) + np.ndim({x})"
        if k < 0.7:
            return f"{a} = np.array(np.shape({x}) + ({x}.nbytes, {x}.itemsize))"
        if k < 0.8 and v.size:
            # (the strides of axes of length 1, and an empty array's, are
            # not NumPy's: deviation 17)
            t, w = self.view_expr(ns, x)
            t = t if w.size else x      # (a[1:] of one element is empty)
            return f"{a} = np.array({t}.strides)[np.array({t}.shape) != 1]"
        return f"{a} = " + r.choice((f"np.isfortran({x})", f"np.iterable({x})",
                                     f"np.isscalar({x})", f"np.isscalar({x}.sum())",
                                     f"np.isfortran({x}.T)"))

    def gap_sort(self, ns):
        """sort/argsort with stable=, partition and argpartition at a list of
        kth (compared there), the set functions of unique inputs
        (assume_unique=True), isin with kind=."""
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.ndim >= 1 and w.size <= 200_000 and
                           w.dtype.kind != 'c')
        t, v = self.view_expr(ns, x)
        ax = r.randrange(-v.ndim, v.ndim)
        d = v.shape[ax]
        k = r.random()
        if k < 0.25:
            f = r.choice((f"np.sort({t}, axis={ax}, stable=True)",
                          f"np.argsort({t}, axis={ax}, stable=True)",
                          f"{t}.argsort(axis={ax}, stable=True)",
                          f"np.sort({t}, axis={ax}, kind='stable', stable=True)"))
            return f"{a} = {f}"
        if k < 0.5 and d:
            kk = sorted({r.randrange(-d, d) for _ in range(r.randint(1, 3))})
            if r.random() < 0.05:
                kk.append(d)                # out of bounds: ValueError
            if r.random() < 0.5:
                return f"{a} = np.take(np.partition({t}, {kk}, axis={ax}), {kk}, axis={ax})"
            return f"{a} = np.take(np.take_along_axis({t}, np.argpartition({t}, {kk}, " \
                   f"axis={ax}, kind='introselect'), axis={ax}), {kk}, axis={ax})"
        y = self.pick(ns, lambda w: w.size <= 200_000 and w.dtype.kind != 'c') or \
            self.small_data((r.randint(0, 9),), 'int16')
        if k < 0.8:
            f = r.choice(('intersect1d', 'setdiff1d', 'setxor1d'))
            ri = ", return_indices=True)[%d]" % r.randint(0, 2) if f == 'intersect1d' and \
                r.random() < 0.5 else ')'
            return f"{a} = np.{f}(np.unique({t}), np.unique({y}), assume_unique=True{ri}"
        kind = r.choice(("'sort'", 'None', "'table'"))
        if kind == "'table'" and not all(
                w.dtype.kind in 'biu' and (w.size == 0 or int(w.max()) - int(w.min()) < 10**6)
                for w in (v, ns[y] if y in ns else numpy.zeros(0, 'int16'))):
            kind = "'sort'"     # (a table of the integer range: of small ranges only)
        inv = ", invert=True" if r.random() < 0.3 else ''
        return f"{a} = np.isin({t}, {y}, kind={kind}{inv})"

    def gap_einsum(self, ns):
        """einsum of three operands and of batches with optimize= (True,
        False, 'greedy', 'optimal'), and the length of einsum_path."""
        r = self.r
        a = self.new()
        dt = r.choice(('float64', 'int64', 'complex128', 'float32', 'int32'))
        i, j, k, m, b = (r.randint(1, 7) for _ in range(5))
        subs, shapes = r.choice((
            ('ij,jk,kl->il', ((i, j), (j, k), (k, m))), ('ij,jk,kl', ((i, j), (j, k), (k, m))),
            ('bij,bjk->bik', ((b, i, j), (b, j, k))), ('i,i,i->', ((i,), (i,), (i,))),
            ('ij,j,jk->ik', ((i, j), (j,), (j, k))), ('bi,bi->b', ((b, i), (b, i))),
            ('ijk,kj->i', ((i, j, k), (k, j))), ('ij,kl->ijkl', ((i, j), (k, m)))))
        ops = ', '.join(self.small_data(s, dt) for s in shapes)
        opt = r.choice(('True', 'False', "'greedy'", "'optimal'"))
        if r.random() < 0.2:
            return f"{a} = np.array(len(np.einsum_path('{subs}', {ops}, optimize={opt})[0]))"
        return f"{a} = np.einsum('{subs}', {ops}, optimize={opt})"

    def gap_misc(self, ns):
        """Window functions, polydiv (exact: divisors led by a power of 2),
        empty_like filled, ndindex/ndenumerate/fromiter/mask_indices."""
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.size <= 2000)
        k = r.random()
        if k < 0.2:
            f = r.choice(('bartlett', 'blackman', 'hamming', 'hanning'))
            return f"{a} = np.{f}({r.choice((0, 1, 2, 5, 12, 51, -1))})"
        if k < 0.35:
            u = [r.randint(-9, 9) for _ in range(r.randint(1, 7))]
            d = [r.choice((1, -1, 2, 4, -2))] + [r.randint(-5, 5) for _ in range(r.randint(0, 3))]
            return f"{a} = np.polydiv(np.asarray({u}, dtype='float64'), " \
                   f"np.asarray({d}, dtype='float64'))[{r.randint(0, 1)}]"
        if k < 0.5:
            dt = f", dtype='{self.dtype(NUMERIC)}'" if r.random() < 0.3 else ''
            return f"{a} = np.empty_like({x}{dt}); {a}[...] = {x}"
        if k < 0.6 and v.ndim:
            return f"{a} = np.array(list(np.ndindex(*{x}.shape)), dtype='int64')" \
                   f".reshape(-1, {v.ndim})"
        if k < 0.7:
            return f"{a} = np.array([e for _, e in np.ndenumerate({x})], dtype='{v.dtype.name}')"
        if k < 0.8:
            return f"{a} = np.fromiter(iter({x}.ravel()), dtype='{v.dtype.name}', count=-1)"
        if v.ndim == 2 and v.shape[0] == v.shape[1]:
            return f"{a} = {x}[np.mask_indices({v.shape[0]}, np.{r.choice(('triu', 'tril'))}, " \
                   f"{r.randint(-2, 2)})]"
        return f"{a} = np.{r.choice(('triu', 'tril'))}({x}, {r.randint(-2, 2)})" if v.ndim >= 2 \
            else f"{a} = np.sort({x}.ravel())"

    def gap_out_alias(self, ns):
        """take, compress and choose (mode 'raise': NumPy buffers out=) with
        out= a view of their own input."""
        r = self.r
        x, v, _ = self.arg(ns, lambda w: w.flags.writeable and w.ndim >= 1 and
                           w.shape[0] >= 2 and w.size <= 200_000)
        n = v.shape[0]
        k = r.random()
        if k < 0.4:
            m = r.randint(1, n)
            idx = [r.randrange(-n, n) for _ in range(m)]
            j = r.randint(0, n - m)
            out = r.choice((f"{x}[{j}:{j + m}]", f"{x}[::-1][:{m}]"))
            return f"np.take({x}, {idx}, axis=0, out={out})  # check"
        if k < 0.7:
            cond = [r.random() < 0.5 for _ in range(n)]
            m = sum(cond)
            out = r.choice((f"{x}[:{m}]", f"{x}[{n - m}:]", f"{x}[::-1][:{m}]"))
            return f"np.compress({cond}, {x}, axis=0, out={out})  # check"
        c = f"({x}.real > 0)" if v.dtype.kind == 'c' else f"({x} > 0)"
        out = r.choice((x, f"{x}[::-1]"))
        return f"np.choose({c}.astype('int8'), ({x}, {x}[::-1]), out={out})  # check"

    # -- edges (session 36): the brief's list of shapes checked against the
    # families above; each step makes what they did not (or made only on
    # small arrays): chains of three and more views written through at
    # default sizes, Python scalars at the edges of an array's type (NEP
    # 50), reductions with where=, initial=, keepdims= and out= together,
    # 0-d and empty arrays through every kind of step, casts between every
    # pair of dtypes of strided views larger than a tile, scans along every
    # axis with out=, in-place sorts of views of large arrays, overlapping
    # in-place work and integer edges at default sizes, concatenate/stack
    # with out= and dtype=
    def edges(self, ns):
        return self.one_of(ns, ((self.edge_chain_set, 6), (self.edge_nep50, 6),
                                (self.edge_reduce_kw, 6), (self.edge_empty0d, 5),
                                (self.edge_cast_pairs, 5), (self.edge_scan_axes, 4),
                                (self.edge_sort_views, 3), (self.edge_overlap_big, 5),
                                (self.edge_int_big, 4), (self.edge_concat, 4)))

    def edge_big(self, dt, nd=1):
        """A shape: larger than one tile in bytes where the setting allows
        (about one in two, at most two per program), else small; 1-d, 2-d
        or 3-d."""
        n = self.idiom_count(dt)
        r = self.r
        if nd == 1:
            return (n,)
        if nd == 2:
            c = r.choice((2, 3, 7, 64, 333)) if n > 1000 else r.choice((2, 3, 5))
            return (max(1, n // c), c) if r.random() < 0.5 else (c, max(1, n // c))
        a, b = r.choice((2, 3, 5)), r.choice((3, 4, 17))
        return (a, b, max(1, n // (a * b)))

    def edge_chain(self, shape, depth):
        """A chain of `depth` basic slicings of an array of `shape`
        (`[3:][::2][::-1]`), each a valid index of the view before it."""
        r = self.r
        z = numpy.empty(shape, dtype='int8')
        text = ''
        for _ in range(depth):
            if z.ndim >= 2 and r.random() < 0.2:
                text += '.T'
                z = z.T
                continue
            parts = [self.slice_text(d) for d in z.shape[:r.randint(1, max(1, z.ndim))]]
            ix = '[' + ', '.join(parts) + ']'
            try:
                z = eval(f"z{ix}", {'z': z})
            except Exception:           # noqa: BLE001
                continue
            text += ix
        return text, z.shape

    def edge_chain_set(self, ns):
        """Writes through chains of 2-4 basic views (`t[1:][::2][::-1] = v`,
        `t.T[::-1][1:, ::2] += 1`, `t.reshape(k, -1)[:, ::2][1:] = v`) of an
        array larger than a tile: a scalar, fresh data, another chain of the
        same array (an overlapping source), or an in-place operator; then
        the base and a view taken before the write are read."""
        r = self.r
        dt = self.idiom_dt()
        shape = self.edge_big(dt, r.choice((1, 1, 2)))
        t, pre = self.new(), self.new()
        lines = [self.mix_fresh(t, shape, dt), f"{pre} = {t}[::-1]"]
        for _ in range(r.randint(1, 3)):
            base, bshape = t, shape
            if len(shape) == 1 and shape[0] % 4 == 0 and r.random() < 0.3:
                k = r.choice((2, 4))
                base, bshape = f"{t}.reshape({k}, -1)", (k, shape[0] // k)
            chain, vshape = self.edge_chain(bshape, r.randint(2, 4))
            if chain.endswith('.T'):
                chain += '[...]'        # (`x.T = v` rebinds an attribute)
            tgt = f"{base}{chain}"
            k = r.random()
            if k < 0.25:
                lines.append(f"{tgt} = {r.choice((0, 1, 7, -3)) if dt[0] != 'u' else 5}")
            elif k < 0.45:
                lines.append(f"{tgt} = np.asarray(data({r.randrange(1 << 30)}, {tuple(vshape)}, "
                             f"'{dt}', 0))")
            elif k < 0.7:
                # a source of the same shape from the same array: NumPy copies
                # an overlapping source first
                src, sshape = self.edge_chain(bshape, r.randint(1, 3))
                if tuple(sshape) == tuple(vshape):
                    lines.append(f"{tgt} = {base}{src}")
                elif len(vshape) == 1 and vshape[0] <= bshape[0] and len(bshape) == 1:
                    lines.append(f"{tgt} = {base}[::-1][:{vshape[0]}]")
                else:
                    lines.append(f"{tgt} = {base}{chain}[::-1]" if vshape else f"{tgt} = 2")
            else:
                op = r.choice(('+=', '-=', '*='))
                rhs = r.choice(('1', '2', f"{base}{chain}[::-1]" if vshape else '1'))
                lines.append(f"{tgt} {op} {rhs}")
            if r.random() < 0.4:
                lines.append(f"{self.new()} = {t}.sum()")
        lines[-1] += '  # check'
        lines.append(f"{self.new()} = {pre}[::3].copy()  # check")
        return self.mix_queue(lines)

    def edge_nep50(self, ns):
        """Python scalars at the edges of an array's type (NEP 50: the
        array's type wins, an int out of its range raises OverflowError,
        comparisons with one are exact, a float into float32 rounds or
        overflows), in operators, ufuncs, where, in-place and in the
        reflected order."""
        r = self.r
        x, v, a = self.arg(ns, lambda w: w.dtype.kind != 'c' or r.random() < 0.2)
        kd = v.dtype.kind
        if kd in 'iu':
            info = numpy.iinfo(v.dtype)
            pool = (info.max, info.max + 1, info.min, info.min - 1, -1, 0, 2 ** 63, 2 ** 64,
                    -2 ** 63, 1.5, -0.5, 1e300, True, 1j)
        elif kd == 'f':
            pool = (1e300, -1e300, 3.4e38, 1e-50, -0.0, 2 ** 64, 2 ** 200, 0.1, 1j, True, 7)
        elif kd == 'b':
            pool = (True, False, 1, 0, -1, 2 ** 63, 1.5, 255, 256)
        else:
            pool = (1e300, 1j, 2 ** 64, -0.0, 1.5)
        s = repr(r.choice(pool))
        k = r.random()
        if k < 0.35:
            op = r.choice(('+', '-', '*', '//', '%', '<', '<=', '==', '!=', '>', '&', '|',
                           '**', '/'))
            if op == '**' and s.startswith('-') and kd in 'iu':
                op = '*'
            return f"{a} = {x} {op} {s}" if r.random() < 0.6 else f"{a} = {s} {op} {x}"
        if k < 0.55:
            f = r.choice(('maximum', 'minimum', 'add', 'equal', 'less', 'greater_equal',
                          'multiply', 'fmax', 'bitwise_and' if kd in 'biu' else 'subtract'))
            return f"{a} = np.{f}({x}, {s})"
        if k < 0.7:
            c = self.pick(ns, lambda w: w.dtype.kind == 'b' and fits(w.shape, v.shape)) or \
                f"{x} != 0" if kd != 'c' else f"{x}.real > 0"
            return f"{a} = np.where({c}, {x}, {s})" if r.random() < 0.6 else \
                f"{a} = np.where({c}, {s}, {x})"
        if k < 0.8:
            return f"{a} = np.full_like({x}, {s})" if r.random() < 0.5 else \
                f"{a} = np.full({v.shape}, {s}, dtype='{v.dtype}')"
        if k < 0.9 and v.flags.writeable:
            op = r.choice(('+=', '-=', '*=', '//=', '|='))
            if op == '|=' and kd in 'fc' or op == '//=' and kd == 'c':
                op = '+='
            return f"{x} {op} {s}  # check"
        if v.flags.writeable and v.size:
            return f"{x}[{r.choice(('...', '::2', '-1:', '0'))}] = {s}  # check" if v.ndim \
                else f"{x}[()] = {s}  # check"
        return f"{a} = np.clip({x}, {s}, None)" if kd != 'c' else f"{a} = {x} + {s}"

    def edge_reduce_kw(self, ns):
        """A reduction with where=, initial=, keepdims=, axis tuples, dtype=
        and out= together (max/min need initial= where a row may be all
        masked: else ValueError), as a method, a function and
        ufunc.reduce, of an array larger than a tile or an existing one."""
        r = self.r
        if r.random() < 0.5:
            dt = self.idiom_dt() if r.random() < 0.8 else r.choice(('bool', 'complex128', 'int8'))
            shape = self.edge_big(dt, r.choice((1, 2, 2, 3)))
            x = self.new()
            first = self.mix_fresh(x, shape, dt)
            v = numpy.zeros(shape, dt)
        else:
            x, v, _ = self.arg(ns, lambda w: w.size <= 2_000_000)
            first = None
        f = r.choice(('sum', 'prod', 'max', 'min', 'any', 'all', 'mean', 'add.reduce',
                      'maximum.reduce', 'minimum.reduce', 'multiply.reduce'))
        if v.dtype.kind == 'c' and f in ('max', 'min', 'maximum.reduce', 'minimum.reduce'):
            f = 'sum'
        kw = []
        ax = self.axis(v.ndim)
        if '.' in f and ax is None and r.random() < 0.5:
            ax = 0 if v.ndim else None
        kw.append(f"axis={ax}")
        kd = r.random() < 0.4
        if kd:
            kw.append("keepdims=True")
        if r.random() < 0.7:
            w = f"np.asarray(data({r.randrange(1 << 30)}, {self.bshape(v.shape)}, 'bool'))"
            kw.append(f"where={w}")
        if f not in ('any', 'all', 'mean') and (r.random() < 0.6 or 'where' in kw[-1]):
            ini = {'b': ('True', 'False', '0'), 'u': ('0', '1', '5', '200'),
                   'i': ('0', '1', '-3', '5'), 'f': ('0.0', '2.5', '-1.5', 'np.inf', '-np.inf'),
                   'c': ('0', '1j')}[v.dtype.kind]
            kw.append(f"initial={r.choice(ini)}")
        outs = ''
        if r.random() < 0.3 and f not in ('any', 'all'):
            try:
                with warnings.catch_warnings(), numpy.errstate(all='ignore'):
                    warnings.simplefilter('ignore')
                    call = f"numpy.{f}(v, axis={ax}, keepdims={kd})" if '.' in f else \
                        f"numpy.{f}(v, axis={ax}, keepdims={kd})"
                    res = eval(call, {'numpy': numpy, 'v': v})
                o = self.new()
                odt = numpy.result_type(res).name
                outs = f"{o} = np.zeros({numpy.shape(res)}, dtype='{odt}'); "
                kw.append(f"out={o}")
            except Exception:           # noqa: BLE001
                outs = ''
        a = self.new()
        if '.' in f:
            line = f"{a} = np.{f}({', '.join([x] + kw)})"
        elif r.random() < 0.5:
            line = f"{a} = {x}.{f}({', '.join(kw)})"
        else:
            line = f"{a} = np.{f}({', '.join([x] + kw)})"
        line = outs + line + ('  # check' if outs else '')
        if first is None:
            return line
        return self.mix_queue([first, line])

    def edge_empty0d(self, ns):
        """0-d and empty arrays through reductions (axis, keepdims,
        initial=, where=), scans, sorts, joins, products, fancy and mask
        writes, ufunc.at, put, reshapes and in-place operators."""
        r = self.r
        dt = self.dtype(NUMERIC) if r.random() < 0.9 else 'bool'
        shape = r.choice(((), (0,), (0, 3), (3, 0), (2, 0, 4), (1,), (0, 0), (1, 0)))
        x = self.new()
        first = f"{x} = np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', 0))"
        if r.random() < 0.2:
            first += ' + 0'
        nd = len(shape)
        ax = r.randrange(-nd, nd) if nd else None
        a = self.new()
        forms = [f"{a} = {x}.sum(axis={ax}, keepdims=True)",
                 f"{a} = {x}.max(axis={ax})" if dt[0] != 'c' else f"{a} = {x}.prod(axis={ax})",
                 f"{a} = np.max({x}, axis={ax}, initial=3)" if dt[0] != 'c' else f"{a} = {x}.sum()",
                 f"{a} = {x}.min(where=np.zeros({shape}, bool), initial=1)" if dt[0] != 'c'
                 else f"{a} = {x}.sum(where=False)",
                 f"{a} = np.argmax({x}, axis={ax})",
                 f"{a} = np.cumsum({x}, axis={ax})", f"{a} = np.cumprod({x})",
                 f"{a} = np.sort({x}, axis={ax})" if nd else f"{a} = np.sort({x}, axis=None)",
                 f"{a} = np.argsort({x}, axis={ax if nd else -1})",
                 f"{a} = np.concatenate([{x}, {x}], axis={ax})" if nd else f"{a} = np.stack([{x}, {x}])",
                 f"{a} = np.stack([{x}, {x}[...]], axis={r.randint(-nd - 1, nd)})",
                 f"{a} = {x}.reshape({tuple(reversed(shape))})", f"{a} = {x}.T.copy()",
                 f"{a} = {x} @ {x}.T" if nd >= 1 else f"{a} = {x} * {x}",
                 f"{x}[...] = 7  # check", f"{x}[{x} > 0] = 1  # check",
                 f"{x}[[]] = 1  # check" if nd else f"{x}[()] = 4  # check",
                 f"{x} += 1  # check" if dt != 'bool' else f"{x} |= True  # check",
                 f"np.add.at({x}, {'()' if not nd else '[]'}, 1)  # check",
                 f"np.put({x}, [], [])  # check", f"{a} = {x}.mean(axis={ax})",
                 f"{a} = np.nonzero({x})[0]" if nd else f"{a} = np.count_nonzero({x})",
                 f"{a} = {x}[None, ...] + {x}",
                 f"{a} = np.where({x} > 1, {x}, 0)" if dt[0] != 'c' else f"{a} = np.abs({x})",
                 f"{a} = {x}.astype('{self.dtype()}')",
                 f"{a} = {x}.all(axis={ax}, keepdims=True)",
                 f"{a} = np.unique({x})", f"{a} = np.diff({x}, axis={ax})" if nd else
                 f"{a} = {x}.item()"]
        return self.mix_queue([first, r.choice(forms)])

    def edge_cast_pairs(self, ns):
        """Casts between any pair of dtypes of strided views (transposed,
        reversed, stepped) of arrays larger than a tile: astype, asarray
        and array with dtype=, copyto and slice assignment with casting=
        'unsafe' (integers wrap, float64 overflows float32, complex drops
        its imaginary part), where C defines the cast (safe_cast_ok)."""
        r = self.r
        src, dst = self.dtype(), self.dtype()
        kind = r.choice((0, 1, 2))
        shape = self.edge_big(src, r.choice((1, 2)))
        seed = r.randrange(1 << 30)
        sample = data(seed, shape, src, kind)
        if not self.safe_cast_ok(sample, dst):
            kind = 0
            sample = data(seed, shape, src, kind)
            if not self.safe_cast_ok(sample, dst):
                dst = 'float64' if src != 'complex128' else 'complex128'
        x, o = self.new(), self.new()
        vw = r.choice((f"{x}[::-1]", f"{x}[1:]", f"{x}[::3]", f"{x}.T", f"{x}") if len(shape) == 1
                      else (f"{x}.T", f"{x}[::-1, ::2]", f"{x}[1:, ::-1]", f"{x}.T[::2]"))
        vshape = eval(vw.replace(x, 'z'), {'z': numpy.empty(shape, 'int8')}).shape
        lines = [f"{x} = np.asarray(data({seed}, {shape}, '{src}', {kind}))"]
        k = r.random()
        if k < 0.35:
            c = r.choice(("", ", casting='unsafe'", ", copy=False", ", order='C'",
                          ", casting='same_kind'", ", casting='safe'"))
            lines.append(f"{o} = {vw}.astype('{dst}'{c})")
        elif k < 0.5:
            lines.append(f"{o} = np.{r.choice(('asarray', 'array'))}({vw}, dtype='{dst}')")
        elif k < 0.75:
            lines.append(f"{o} = np.zeros({vshape}, dtype='{dst}'); np.copyto({o}, {vw}, "
                         f"casting='{r.choice(('unsafe', 'unsafe', 'same_kind'))}')  # check")
        else:
            lines.append(f"{o} = np.ones({vshape}, dtype='{dst}'); {o}[...] = {vw}  # check")
        if r.random() < 0.5:
            lines.append(f"{self.new()} = {o}.astype('{src}'){'.sum()' if src != 'bool' else ''}")
        return self.mix_queue(lines)

    def edge_scan_axes(self, ns):
        """cumsum/cumprod along every axis of 2-d and 3-d arrays larger than
        a tile and of their transposed or reversed views, with dtype= and
        out= (a fresh array, or the input itself)."""
        r = self.r
        dt = self.idiom_dt() if r.random() < 0.85 else r.choice(('bool', 'int8', 'uint8'))
        shape = self.edge_big(dt, r.choice((2, 3)))
        x = self.new()
        lines = [self.mix_fresh(x, shape, dt)]
        f = r.choice(('cumsum', 'cumsum', 'cumprod', 'nancumsum'))
        vw = r.choice((x, f"{x}.T", f"{x}[::-1]", f"np.swapaxes({x}, 0, -1)[1:]"))
        vv = eval(vw.replace(x, 'z'), {'z': numpy.empty(shape, 'int8'), 'np': numpy})
        for _ in range(r.randint(1, 3)):
            ax = r.randrange(-vv.ndim, vv.ndim)
            kw = f", axis={ax}"
            rdt = numpy.cumsum(numpy.zeros(1, dt)).dtype.name
            if r.random() < 0.3:
                rdt = r.choice(('int64', 'float64', 'int32', 'float32'))
                kw += f", dtype='{rdt}'"
            a = self.new()
            k = r.random()
            if k < 0.25 and f != 'nancumsum':
                lines.append(f"np.{f}({x}, axis={ax % len(shape)}, out={x})  # check")
            elif k < 0.5:
                lines.append(f"{a} = np.zeros({vv.shape}, dtype='{rdt}'); "
                             f"np.{f}({vw}{kw}, out={a})  # check")
            else:
                lines.append(f"{a} = np.{f}({vw}{kw})")
        lines[-1] += '' if lines[-1].endswith('# check') else '  # check'
        return self.mix_queue(lines)

    def edge_sort_views(self, ns):
        """In-place sorts of views of arrays larger than a tile (`t[::2].sort()`,
        `t.T.sort(axis=0)`, `t[:, ::-1].sort(axis=1)`), the base read after;
        argsort (stable) and partition of the same views compared at kth."""
        r = self.r
        dt = self.idiom_dt()
        shape = self.edge_big(dt, r.choice((1, 2)))
        t = self.new()
        lines = [self.mix_fresh(t, shape, dt)]
        if len(shape) == 1:
            vw = r.choice((f"{t}[::2]", f"{t}[::-1]", f"{t}[1:-1]", f"{t}[3::5]"))
            ax = -1
        else:
            vw = r.choice((f"{t}.T", f"{t}[:, ::-1]", f"{t}[::2]", f"{t}[1:, 1:]"))
            ax = r.choice((0, 1, -1))
        vv = eval(vw.replace(t, 'z'), {'z': numpy.empty(shape, 'int8')})
        k = r.random()
        if k < 0.5:
            lines.append(f"{vw}.sort(axis={ax})  # check")
        elif k < 0.75:
            lines.append(f"{self.new()} = np.argsort({vw}, axis={ax}, kind='stable')")
        elif vv.shape[ax]:
            kth = r.randrange(vv.shape[ax])
            lines.append(f"{self.new()} = np.take(np.partition({vw}, {kth}, axis={ax}), {kth}, "
                         f"axis={ax})")
        lines.append(f"{self.new()} = {t}.sum(axis=0)  # check")
        return self.mix_queue(lines)

    def edge_overlap_big(self, ns):
        """The overlapping in-place forms of Gen.overlap on arrays larger
        than a tile, with shifts near a tile's length: `a[k:] += a[:-k]`,
        `a[::-1] = a`, `np.add(a[1:], a[:-1], out=a[1:])`, `a -= a[::-1]`,
        `a.T[...] = a` (square)."""
        r = self.r
        dt = self.idiom_dt()
        sq = r.random() < 0.2
        shape = self.idiom_shape(dt, square=True) if sq else self.edge_big(dt, 1)
        t = self.new()
        lines = [self.mix_fresh(t, shape, dt)]
        n = shape[0]
        T = self.tile_elems(dt)
        kk = r.choice((1, 2, 7, T - 1, T, T + 1, n // 2))
        kk = max(1, min(kk, n - 1)) if n > 1 else 0
        uf = r.choice(('add', 'subtract', 'maximum', 'multiply'))
        if sq:
            forms = [f"{t}[...] = {t}.T", f"{t} += {t}.T", f"{t}[::-1] = {t}.T",
                     f"np.{uf}({t}, {t}.T[::-1], out={t})", f"{t}[1:] -= {t}.T[:-1]"]
        else:
            forms = [f"{t}[{kk}:] += {t}[:{n - kk}]", f"{t}[:{n - kk}] += {t}[{kk}:]",
                     f"{t}[::-1] = {t}", f"{t}[{kk}:] = {t}[:{n - kk}]",
                     f"{t}[:{n - kk}] = {t}[{kk}:]", f"{t} -= {t}[::-1]",
                     f"np.{uf}({t}[1:], {t}[:-1], out={t}[1:])",
                     f"np.{uf}({t}[:-1], {t}[1:], out={t}[:-1])",
                     f"np.{uf}({t}[::-1], {t}, out={t})",
                     f"{t}[::2][1:] = {t}[1::2][:{(n + 1) // 2 - 1}]",
                     f"{t}[::-2] *= {t}[::2][::-1]" if n % 2 else f"{t}[::-2] *= {t}[1::2]"]
        for _ in range(r.randint(1, 3)):
            lines.append(r.choice(forms) + '  # check')
        lines.append(f"{self.new()} = {t}.sum()  # check")
        return self.mix_queue(lines)

    def edge_int_big(self, ns):
        """Integer floor division, remainder, divmod (with out=) and shifts
        of arrays larger than a tile holding the type's extremes, by arrays
        holding 0, -1 and the extremes (MIN // -1, x % 0, shifts by the
        width and more)."""
        r = self.r
        dt = r.choice(INTS)
        shape = self.edge_big(dt, r.choice((1, 2)))
        x, y = self.new(), self.new()
        lines = [f"{x} = np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', 2))",
                 f"{y} = np.asarray(data({r.randrange(1 << 30)}, {shape}, '{dt}', 0))"]
        if r.random() < 0.5:
            lines.append(f"{y}[::{r.choice((3, 7, 1000))}] = {r.choice((0, 1))}"
                         f"{'' if dt[0] == 'u' else ' - 1'}")
        a, b = self.new(), self.new()
        k = r.random()
        if k < 0.25:
            lines.append(f"{a} = {x} {r.choice(('//', '%'))} {y}")
        elif k < 0.4:
            lines.append(f"{a} = np.zeros({shape}, '{dt}'); {b} = np.zeros({shape}, '{dt}'); "
                         f"np.divmod({x}, {y}, out=({a}, {b}))  # check")
        elif k < 0.55:
            lines.append(f"{a} = np.fmod({x}[::-1], {y})")
        elif k < 0.7:
            c = r.choice((0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 65))
            c = f"np.uint8({c})" if r.random() < 0.3 else str(c)
            lines.append(f"{a} = {x} {r.choice(('<<', '>>'))} {c}")
        elif k < 0.85:
            lines.append(f"{a} = {x} {r.choice(('<<', '>>'))} ({y} % {r.choice((8, 66, 130))})"
                         if dt[0] == 'u' else
                         f"{a} = {x} {r.choice(('<<', '>>'))} np.abs({y} % 70)")
        else:
            lines.append(f"{x} //= {y}[::-1]  # check" if r.random() < 0.5 else
                         f"{x} %= {y}  # check")
        lines[-1] += '' if lines[-1].endswith('# check') else '  # check'
        return self.mix_queue(lines)

    def edge_concat(self, ns):
        """concatenate and stack of views (reversed, stepped, transposed) of
        arrays larger than a tile, with out= (a fresh array, of another
        dtype too), dtype= and casting=, axis=None."""
        r = self.r
        dt = self.idiom_dt()
        shape = self.edge_big(dt, r.choice((1, 2)))
        x = self.new()
        lines = [self.mix_fresh(x, shape, dt)]
        parts = r.sample((f"{x}", f"{x}[::-1]", f"{x}[::-1][::-1]", f"{x}[:]"),
                         r.randint(2, 3))
        z = numpy.empty(shape, dt)
        k = r.random()
        a = self.new()
        odt = dt if r.random() < 0.6 else r.choice(('float64', 'int64', 'float32', 'int16'))
        if k < 0.35:
            ax = r.choice((0, -1, None))
            res = numpy.concatenate([z] * len(parts), axis=ax)
            lines.append(f"{a} = np.zeros({res.shape}, '{odt}'); np.concatenate([{', '.join(parts)}], "
                         f"axis={ax}, out={a}{r.choice(('', chr(44) + ' casting=' + chr(39) + 'unsafe' + chr(39)))})  # check")
        elif k < 0.55:
            ax = r.randint(-len(shape) - 1, len(shape))
            res = numpy.stack([z] * len(parts), axis=ax)
            lines.append(f"{a} = np.zeros({res.shape}, '{odt}'); np.stack([{', '.join(parts)}], "
                         f"axis={ax}, out={a}{r.choice(('', chr(44) + ' casting=' + chr(39) + 'unsafe' + chr(39)))})  # check")
        elif k < 0.8:
            lines.append(f"{a} = np.concatenate([{', '.join(parts)}], axis={r.choice((0, None))}, "
                         f"dtype='{odt}', casting='{r.choice(('same_kind', 'unsafe', 'safe'))}')")
        else:
            lines.append(f"{a} = np.{r.choice(('vstack', 'hstack', 'column_stack'))}"
                         f"([{', '.join(parts)}])")
        lines.append(f"{self.new()} = {a}.sum()" if r.random() < 0.5 else
                     f"{self.new()} = {a}[::-1].copy()  # check")
        return self.mix_queue(lines)


# ---------------------------------------------------------------- programs

def run_program(seed, nd, big_max=3_000_000, steps=None, check_every=False, avoid=False,
                focus=None, ranks=1):
    """Generate and run program `seed` (focus: Gen's). Returns (lines,
    None) or (lines, Mismatch). The program goes on past a mismatch only to
    keep MPI ranks in step (the caller stops at the first one)."""
    g = Gen(seed, big_max, avoid, focus, ranks)
    r = g.r
    nsteps = steps if steps is not None else r.randint(3, 25)
    ns_np, ns_nd = namespaces(nd)
    lines = []
    failure = None
    for _ in range(nsteps):
        line = g.step(ns_np)
        lines.append(line)
        try:
            after_line(line, ns_np, ns_nd, nd, run_line(line, ns_np, ns_nd, nd))
            if check_every or line.endswith('# check'):
                compare_all(ns_np, ns_nd, nd, line)
            else:
                name = line.split(' = ')[0].strip()
                if name in ns_np and r.random() < 0.5:
                    compare_name(ns_np, ns_nd, nd, line, name)
        except Mismatch as m:
            failure = failure or m
            break
        # drop names ndtile failed to make (NumPy raised there)
        for k in names_of(ns_np):
            if not isinstance(ns_np[k], (numpy.ndarray, numpy.generic, int, float, bool,
                                         complex)):
                del ns_np[k]
                ns_nd.pop(k, None)
    if failure is None:
        try:
            compare_all(ns_np, ns_nd, nd, '<end of program>')
        except Mismatch as m:
            failure = m
    return lines, failure


def signature(m):
    """What a minimised program must keep failing with: the kind and the
    detail without names and numbers."""
    d = re.sub(r"\ba\d+\b|\(.*?\)|\[.*?\]|\b[-+]?\d[\d.e+-]*j?\b", '', m.detail)
    return m.kind + ':' + re.sub(r'\s+', ' ', d)[:90]


def fails(lines, nd, kind):
    try:
        replay(lines, nd, every=False)
    except Mismatch as m:
        return kind is None or signature(m) == kind
    except Exception:               # noqa: BLE001 - a crash in the comparison
        return False
    return False


def minimise(lines, nd, kind):
    """Delta debugging over lines: the shortest program (found greedily)
    that still fails with the same kind of mismatch."""
    lines = list(lines)
    n = 2
    while len(lines) >= 2:
        chunk = max(1, len(lines) // n)
        removed = False
        for i in range(0, len(lines), chunk):
            cand = lines[:i] + lines[i + chunk:]
            if cand and fails(cand, nd, kind):
                lines = cand
                n = max(n - 1, 2)
                removed = True
                break
        if not removed:
            if chunk == 1:
                break
            n = min(len(lines), n * 2)
    # shrink data shapes: try halving every dimension of each data() call
    for i, line in enumerate(lines):
        for _ in range(6):
            m = re.search(r"data\((\d+), (\([^)]*\))", line)
            if not m:
                break
            shape = eval(m.group(2))
            if not shape or math.prod(shape) <= 1:
                break
            small = tuple(max(1, d // 2) for d in shape) if isinstance(shape, tuple) else shape
            new = line[:m.start(2)] + repr(small) + line[m.end(2):]
            cand = lines[:i] + [new] + lines[i + 1:]
            if fails(cand, nd, kind):
                lines, line = cand, new
            else:
                break
    return lines


def script(lines, setting, seed, failure, xfail=None):
    """A corpus file for a minimised failure: a plain Python script that
    runs the program with NumPy and ndtile and compares after every line."""
    env, ranks, _ = SETTINGS[setting]
    body = '\n'.join(lines)
    doc = str(failure).replace('\\', '/').replace('"', "'").splitlines()[0][:300]
    q = '"' * 3
    return (f'{q}Fuzz seed {seed}, setting {setting}: {doc}{q}\n'
            f'SETTING = {setting!r}\n'
            f'XFAIL = {xfail!r}\n'
            f'PROGRAM = {q}\n{body}\n{q}\n'
            '\n'
            "if __name__ == '__main__':\n"
            '    import os\n'
            '    import sys\n'
            f'    os.environ.update({env!r})\n'
            '    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n'
            '    import ndtile\n'
            '    from fuzzlib import replay\n'
            '    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)\n'
            "    print('ok')\n")
