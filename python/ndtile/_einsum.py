"""einsum and einsum_path (NumPy's _core.einsumfunc)."""

import builtins

import numpy as _np
from numpy._core import einsumfunc as _np_einsumfunc
from numpy._core._exceptions import _UFuncOutputCastingError

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _methods
from . import _order as _O

Array = _core.Array


# -- einsum --


def _einsum_parse(subscripts, shapes, sum_broadcast=False):
    """(per-operand label lists, output label list) with ellipses replaced
    by private labels (right-aligned, broadcasting). sum_broadcast: an
    explicit output without '...' sums the dimensions an input's '...'
    covers (NumPy's optimize= path); otherwise that is NumPy's ValueError
    (its C einsum, optimize=False)."""
    if not isinstance(subscripts, str):
        raise TypeError("einsum subscripts must be a string")
    sub = subscripts.replace(' ', '')
    if '->' in sub:
        ins, outs = sub.split('->', 1)
        if '->' in outs or '-' in outs or '>' in outs:
            raise ValueError("einsum(): invalid subscript '>' in the output")
    else:
        ins, outs = sub, None
    terms = ins.split(',')
    if len(terms) != len(shapes):
        # NumPy's wording: "fewer" when the string names fewer operands
        raise ValueError("fewer operands provided to einstein sum function than specified in "
                         "the subscripts string" if len(terms) < len(shapes) else
                         "more operands provided to einstein sum function than specified "
                         "in the subscripts string")
    nell = 0
    parsed = []
    for t, shp in zip(terms, shapes):
        if t.count('...') > 1 or t.replace('...', '').count('.'):
            raise ValueError("einsum(): invalid subscript '.' in the operand")
        for ch in t.replace('...', ''):
            if not ch.isalpha() or not ch.isascii():
                raise ValueError(f"invalid subscript '{ch}' in einstein sum subscripts string, "
                                 f"subscripts must be letters")
        nlab = len(t.replace('...', ''))
        if '...' in t:
            k = len(shp) - nlab
            if k < 0:
                raise ValueError(f"einstein sum subscripts string contains too many subscripts "
                                 f"for operand {len(parsed)}")
            nell = builtins.max(nell, k)
        elif nlab != len(shp):
            raise ValueError(f"einstein sum subscripts string contains too many subscripts "
                             f"for operand {len(parsed)}" if nlab > len(shp) else
                             f"einsum(): operand has more dimensions than subscripts given "
                             f"in einstein sum, but no '...' ellipsis provided to broadcast "
                             f"the extra dimensions.")
        parsed.append(t)
    ell = [chr(0x100 + i) for i in range(nell)]   # private labels, above ASCII
    labels = []
    for t, shp in zip(parsed, shapes):
        if '...' in t:
            pre, post = t.split('...')
            k = len(shp) - len(pre) - len(post)
            labels.append(list(pre) + ell[nell - k:] + list(post))
        else:
            labels.append(list(t))
    if outs is None:
        counts = {}
        for ls in labels:
            for ch in ls:
                counts[ch] = counts.get(ch, 0) + 1
        out = ell + sorted(ch for ch, c in counts.items() if c == 1 and ch not in ell)
    else:
        if outs.count('...') > 1 or outs.replace('...', '').count('.'):
            raise ValueError("einsum(): invalid subscript '.' in the output")
        if '...' in outs:
            pre, post = outs.split('...')
            out = list(pre) + ell + list(post)
        else:
            out = list(outs)      # broadcast dimensions not named are summed away
        seen = set()
        alll = set(ch for ls in labels for ch in ls)
        for ch in out:
            if ch in seen:
                raise ValueError(f"einstein sum subscripts string includes output subscript "
                                 f"'{ch}' multiple times")
            if ch not in alll and ch not in ell:
                raise ValueError(f"einstein sum subscripts string included output subscript "
                                 f"'{ch}' which never appeared in an input")
            if not (ch.isalpha() or ch in ell):
                raise ValueError(f"invalid subscript '{ch}' in einstein sum subscripts string, "
                                 f"subscripts must be letters")
            seen.add(ch)
        if nell and '...' not in outs and not sum_broadcast:
            raise ValueError("output has more dimensions than subscripts given in einstein "
                             "sum, but no '...' ellipsis provided to broadcast the extra "
                             "dimensions.")
    return labels, out


def _einsum_sum(x, labs, drop, rdt):
    axes = tuple(k for k, ch in enumerate(labs) if ch in drop)
    if not axes:
        return x, labs
    r = _methods.reduce_nd('sum', x, axes, D.code(rdt) if D.KIND[D.code(rdt)] in 'fc' else D.DEFAULT,
                    False)
    if r._dt != D.code(rdt):
        r = r._astype(D.code(rdt), _core.CASTING_UNSAFE)
    return r, [ch for ch in labs if ch not in drop]


def _einsum_diag(x, labs):
    """Repeated labels within one operand: the diagonal (a view)."""
    while True:
        for i, ch in enumerate(labs):
            j = labs.index(ch, i + 1) if ch in labs[i + 1:] else -1
            if j >= 0:
                if x.shape[i] != x.shape[j]:
                    raise ValueError(f"dimensions in operand for collapsing index '{ch}' don't "
                                     f"match ({x.shape[i]} != {x.shape[j]})")
                x = _core.diagonal(x, 0, i, j)
                labs = [c for k, c in enumerate(labs) if k not in (i, j)] + [ch]
                break
        else:
            return x, labs


def _sublist_labels(sub):
    """A sublist (ints in [0, 52), Ellipsis) as subscript letters, NumPy's
    way: 0-25 are 'A'-'Z', 26-51 'a'-'z' (so the implicit output keeps the
    numeric order)."""
    out = []
    for k in sub:
        if k is Ellipsis:
            out.append('...')
            continue
        if isinstance(k, bool) or not isinstance(k, (int, _np.integer)):
            raise TypeError("each subscript must be either an integer or an ellipsis")
        if not 0 <= k < 52:
            raise ValueError("subscript is not within the valid range [0, 52)")
        out.append(chr(ord('A') + k) if k < 26 else chr(ord('a') + k - 26))
    return ''.join(out)


def _from_sublists(operands):
    """einsum(op0, sublist0, op1, sublist1, ..., [sublistout]) as
    (subscripts, operands)."""
    n = len(operands) // 2
    ins = [_sublist_labels(operands[2 * i + 1]) for i in range(n)]
    subscripts = ','.join(ins)
    if len(operands) % 2:
        subscripts += '->' + _sublist_labels(operands[-1])
    return (subscripts,) + tuple(operands[2 * i] for i in range(n))


def _last_step(subscripts, xs, optimize):
    """How NumPy's einsum makes its result: None where its C einsum does
    (optimize=False, and the optimize= path's last contraction of one or of
    three and more operands), else the last contraction of two operands
    as its bmm_einsum parses it, (new_shape_ab, perm_ab, pure): a product
    by multiply (pure), else by matmul, reshaped or transposed after where
    new_shape_ab or perm_ab says. The path is NumPy's, planned on
    data-free stand-ins."""
    bmm = getattr(_np_einsumfunc, '_parse_eq_to_batch_matmul', None)
    if optimize is False or bmm is None:
        return None
    stand = [_np.broadcast_to(_np.empty((), x.dtype), tuple(x.shape)) for x in xs]
    _, steps = _np.einsum_path(subscripts, *stand, optimize=optimize, einsum_call=True)
    shapes = [s.shape for s in stand]
    for k, step in enumerate(steps):
        inds, eq = step[0], step[1]
        opsh = [shapes.pop(i) for i in inds]
        ins, outs = eq.split('->')
        if k == len(steps) - 1:
            if len(opsh) != 2:
                return None
            parsed = bmm(eq, tuple(opsh[0]), tuple(opsh[1]))
            return parsed[4], parsed[5], parsed[6]
        size = {}
        for t, sh in zip(ins.split(','), opsh):
            for ch, n in zip(t, sh):
                if size.get(ch, 1) == 1:
                    size[ch] = n
        shapes.append(tuple(size[ch] for ch in outs))
    return None


def _out_casting(subscripts, xs, optimize, casting):
    """(rule, ufunc name or None): how NumPy's einsum casts its result into
    out=. Its C einsum (_last_step None) checks casting=, 'safe' by
    default. A last contraction of two operands is its bmm_einsum's:
    multiply or matmul writing into out (the ufunc's rule: casting=, by
    default 'same_kind'), or, where the product is reshaped or transposed
    first, `out[...] = ab`, an unsafe assignment whatever casting= says
    ('i,i->' into an integer out of float operands). (The ufunc name is ''
    for the assignment.)"""
    last = _last_step(subscripts, xs, optimize)
    if last is None:
        return 'safe' if casting is None else casting, None
    new_shape_ab, perm_ab, pure = last
    if pure or (new_shape_ab is None and perm_ab is None):
        return 'same_kind' if casting is None else casting, 'multiply' if pure else 'matmul'
    return 'unsafe', ''       # (the assignment: '')


def _zero_d_array(subscripts, xs, optimize, order):
    """Whether NumPy's einsum gives a 0-d result as an array, not a
    scalar: where bmm_einsum's matmul product is reshaped, transposed or
    made an array of order= C, F or A (its C einsum and multiply give
    scalars)."""
    last = _last_step(subscripts, xs, optimize)
    return last is not None and not last[2] and (
        last[0] is not None or last[1] is not None or order != 'K')


def einsum(*operands, out=None, optimize=False, dtype=None, order='K', casting=None):
    # casting=None: NumPy's default, 'safe' for the operands and its C
    # einsum's out=, the ufuncs' 'same_kind' where its optimize= path
    # writes out= with multiply or matmul (_out_casting)
    kw = {} if casting is None else {'casting': casting}
    in_casting = 'safe' if casting is None else casting
    if len(operands) > 1 and not isinstance(operands[0], str):
        operands = _from_sublists(operands)        # the sublist form
    if out is not None and not isinstance(out, (Array, _np.ndarray)):
        raise TypeError("keyword parameter out must be an array for einsum")
    if isinstance(optimize, (list, tuple)) and operands:
        einsum_path(*operands, optimize=optimize)   # NumPy's RuntimeError for a bad path
    order = order.upper() if isinstance(order, str) else order
    if not operands or not isinstance(operands[0], str) or order not in ('K', 'C', 'A', 'F'):
        return F.call("einsum (sublist form or order)", _np.einsum, operands,
                      {'out': out, 'optimize': optimize, 'dtype': dtype, 'order': order, **kw})
    subscripts, ops = operands[0], list(operands[1:])
    xs = []
    for o in ops:
        x = C.asarray(o)
        if not isinstance(x, Array):
            return F.call("einsum (dtype)", _np.einsum, operands,
                          {'out': out, 'optimize': optimize, 'dtype': dtype, 'order': order,
                           **kw})
        xs.append(x)
    labels, outl = _einsum_parse(subscripts, [x.shape for x in xs], optimize is not False)
    if optimize is False:
        # NumPy's C einsum: its iterator's check of out=, after the subscripts'
        _methods.check_out_writeable(out, _methods.RO_ITER)
    rdt = _np.result_type(*[x.dtype for x in xs]) if dtype is None else _np.dtype(dtype)
    for i, (x, ls) in enumerate(zip(xs, labels)):
        seen = {}
        for n, ch in zip(x.shape, ls):
            if ch in seen and seen[ch] != n:
                raise ValueError(f"dimensions in operand {i} for collapsing index '{ch}' don't "
                                 f"match ({seen[ch]} != {n})")
            seen[ch] = n
    for i, x in enumerate(xs):
        if not _np.can_cast(x.dtype, rdt, in_casting):
            raise TypeError(f"Iterator operand {i} dtype could not be cast from {x.dtype!r} to "
                            f"{rdt!r} according to the rule {in_casting!r}")
    if D.code(rdt) is None:
        return F.call("einsum (dtype)", _np.einsum, operands,
                      {'out': out, 'optimize': optimize, 'dtype': dtype, **kw})
    all_f = all(x.flags.f_contiguous for x in xs)      # order 'A' means F
    ops_in = xs
    xs = [x if x.dtype == rdt else x._astype(D.code(rdt), _core.CASTING_UNSAFE) for x in xs]
    # label sizes (size-1 dimensions broadcast)
    sizes = {}
    for x, ls in zip(xs, labels):
        for n, ch in zip(x.shape, ls):
            old = sizes.get(ch, 1)
            if old != n and old != 1 and n != 1:
                raise ValueError(f"operands could not be broadcast together with remapped "
                                 f"shapes [original->remapped]: size {old} and {n} for "
                                 f"label '{ch}'" if ord(ch) < 0x100 else
                                 "operands could not be broadcast together")
            sizes[ch] = builtins.max(old, n) if old != 1 else n
    items = []
    for x, ls in zip(xs, labels):
        x, ls = _einsum_diag(x, list(ls))
        items.append((x, ls))
    outset = set(outl)
    # pairwise contraction, left to right
    while True:
        # sum labels only this operand has (and the output lacks)
        new = []
        for i, (x, ls) in enumerate(items):
            others = set(ch for j, (_, l2) in enumerate(items) if j != i for ch in l2)
            drop = set(ch for ch in ls if ch not in outset and ch not in others)
            new.append(_einsum_sum(x, ls, drop, rdt))
        items = new
        if len(items) == 1:
            break
        (x, lx), (y, ly) = items[0], items[1]
        rest = set(ch for _, l2 in items[2:] for ch in l2)
        shared = [ch for ch in lx if ch in ly]
        contr = [ch for ch in shared if ch not in outset and ch not in rest]
        batch = [ch for ch in shared if ch not in contr]
        # a contracted label of size 1 on one side broadcasts: sum it on the other
        for ch in list(contr):
            nx, ny = x.shape[lx.index(ch)], y.shape[ly.index(ch)]
            if nx != ny:
                if nx == 1:
                    x, lx = x._squeeze((lx.index(ch),)), [c for c in lx if c != ch]
                    y, ly = _einsum_sum(y, ly, {ch}, rdt)
                else:
                    y, ly = y._squeeze((ly.index(ch),)), [c for c in ly if c != ch]
                    x, lx = _einsum_sum(x, lx, {ch}, rdt)
                contr.remove(ch)
        xo = [ch for ch in lx if ch not in shared]
        yo = [ch for ch in ly if ch not in shared]
        xt = x._transpose(tuple(lx.index(ch) for ch in batch + xo + contr))
        yt = y._transpose(tuple(ly.index(ch) for ch in batch + contr + yo))
        bs = xt.shape[:len(batch)]
        bsy = yt.shape[:len(batch)]
        xs_o, ys_o = xt.shape[len(batch):len(batch) + len(xo)], yt.shape[len(batch) + len(contr):]
        kk = 1
        for ch in contr:
            kk *= x.shape[lx.index(ch)]
        mm = 1
        for n in xs_o:
            mm *= n
        nn = 1
        for n in ys_o:
            nn *= n
        r = _core.matmul(xt._reshape(bs + (mm, kk)), yt._reshape(bsy + (kk, nn)))
        r = r._reshape(r.shape[:-2] + xs_o + ys_o)
        items = [(r, batch + xo + yo)] + items[2:]
    x, ls = items[0]
    # output labels the operands lack (size-1 broadcast labels dropped earlier) and order
    for ch in outl:
        if ch not in ls:
            x = x._expand_dims(x.ndim)
            ls = ls + [ch]
    x = x._transpose(tuple(ls.index(ch) for ch in outl))
    shape = tuple(sizes.get(ch, 1) for ch in outl)
    if x.shape != shape:
        x = x._broadcast_to(shape)
    if out is None and x.ndim > 1 and order != 'K' and not (
            len(xs) == 1 and xs[0] is ops_in[0] and set(labels[0]) <= outset):
        # NumPy's layout of a new result (a view of the one operand stays
        # one, as NumPy's): 'F', 'C', or 'A' (F for operands all
        # Fortran-contiguous)
        if order == 'F' or (order == 'A' and all_f):
            return x if _O.is_f_only(x) else _O.f_copy(x)
        if not x.flags.c_contiguous:
            return x._copy()
    if out is not None:
        rule, ufunc = _out_casting(subscripts, ops_in, optimize, casting)
        if ufunc != '':
            # a read-only out= in the words of what writes it (the
            # assignment's own: "assignment destination is read-only")
            _methods.check_out_writeable(out, _methods.RO_UFUNC if ufunc else _methods.RO_ITER)
        if not _np.can_cast(x.dtype, out.dtype, rule):
            if ufunc is not None:       # NumPy's multiply or matmul raised it
                raise _UFuncOutputCastingError(getattr(_np, ufunc), rule, x.dtype, out.dtype, 2)
            raise TypeError(f"Cannot cast array data from {x.dtype!r} to {out.dtype!r} "
                            f"according to the rule {rule!r}")
        out[...] = x
        return out
    if x.ndim == 0 and not _zero_d_array(subscripts, ops_in, optimize, order):
        return x._scalar()
    return x


def einsum_path(*operands, optimize='greedy', einsum_call=False):
    """NumPy's einsum_path: the contraction order depends on the operands'
    shapes and dtypes only, so NumPy plans it on data-free stand-ins."""
    if einsum_call:
        return F.call("einsum_path (einsum_call)", _np.einsum_path, operands,
                      {'optimize': optimize, 'einsum_call': einsum_call})
    if len(operands) > 1 and not isinstance(operands[0], str):
        operands = _from_sublists(operands)        # the sublist form
    if not operands:
        return _np.einsum_path(optimize=optimize)       # NumPy's error
    subscripts, operands = operands[0], operands[1:]
    stand_ins = []
    for o in operands:
        x = C.asarray(o)
        if isinstance(x, Array):
            stand_ins.append(_np.broadcast_to(_np.empty((), x.dtype), tuple(x.shape)))
        else:
            stand_ins.append(o)
    return _np.einsum_path(subscripts, *stand_ins, optimize=optimize)
