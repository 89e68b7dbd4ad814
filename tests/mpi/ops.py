"""Every kind of operation, on arrays of many tiles, written to one .npz.

Run it on 1, 2, 3 and 4 ranks and as a plain process: the files must be
bitwise the same (tests/mpi/run.py compares them). Each result is also
checked against NumPy here, so a wrong answer that happens to be the same
on every rank count still fails.

    python tests/mpi/ops.py OUT.npz
"""
import sys

import numpy
import ndtile as np

np._core.set_tile_bytes(4096)      # many tiles, so every op crosses ranks
out_path = sys.argv[1]
results = {}
rng0 = numpy.random.default_rng(1234)


def keep(name, got, want=None, exact=True):
    # a copy: on one process numpy.asarray shares the array's memory (as
    # it does for a NumPy array), and later in-place steps would change it
    g = numpy.array(got)
    if want is not None:
        w = numpy.asarray(want)
        assert g.shape == w.shape, (name, g.shape, w.shape)
        assert g.dtype == w.dtype, (name, g.dtype, w.dtype)
        if exact:
            assert numpy.array_equal(g, w, equal_nan=g.dtype.kind in 'fc'), name
        else:
            assert numpy.allclose(g, w, rtol=1e-10, atol=1e-12, equal_nan=True), name
    results[name] = g


A = rng0.standard_normal((150, 97))
B = rng0.standard_normal((97, 64))
I = rng0.integers(-50, 50, size=(123, 45)).astype(numpy.int32)
a, b, i = np.asarray(A), np.asarray(B), np.asarray(I)

# elementwise, broadcasting, casts, fused chains
keep('add', a + 1.5, A + 1.5)
keep('chain', np.sin(a) * 2 + a * a - 3, numpy.sin(A) * 2 + A * A - 3, exact=False)
keep('bcast', a + a[0], A + A[0])
keep('bcast_col', a * a[:, :1], A * A[:, :1])
keep('int_ops', (i * 3) // 7 + i % 5, (I * 3) // 7 + I % 5)
keep('cast', i.astype(np.float32) / 3, I.astype(numpy.float32) / 3)
keep('cmp', a > 0.1, A > 0.1)
keep('where', np.where(a > 0, a, -a), numpy.where(A > 0, A, -A))
keep('complex', (a + 1j * a) ** 2, (A + 1j * A) ** 2, exact=False)

# views with offsets: a 5-point stencil and a 1-d halo
s = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
keep('stencil', s, 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:]))
v = np.asarray(A.ravel())
keep('halo1d', v[1:] - v[:-1], A.ravel()[1:] - A.ravel()[:-1])
keep('steps', a[::3, ::-2] * 2, A[::3, ::-2] * 2)
keep('transpose', a.T + 0, A.T + 0)
keep('transpose_add', a[:97, :97] + a[:97, :97].T, A[:97, :97] + A[:97, :97].T)

# in-place updates of views (a Jacobi step in place)
c = a.copy()
C = A.copy()
c[1:-1, 1:-1] = 0.5 * (c[:-2, 1:-1] + c[2:, 1:-1])
C[1:-1, 1:-1] = 0.5 * (C[:-2, 1:-1] + C[2:, 1:-1])
keep('inplace', c, C)
c[::2] += 1
C[::2] += 1
keep('inplace_step', c, C)

# reductions along every axis
keep('sum', a.sum(), A.sum(), exact=False)
keep('sum0', a.sum(axis=0), A.sum(axis=0), exact=False)
keep('sum1', a.sum(axis=1), A.sum(axis=1), exact=False)
keep('mean_std', np.stack([a.mean(axis=0), a.std(axis=0)]),
     numpy.stack([A.mean(axis=0), A.std(axis=0)]), exact=False)
keep('isum', i.sum(axis=0), I.sum(axis=0))
keep('max', a.max(axis=1), A.max(axis=1))
keep('prod', (a[:20, :20] * 0.1 + 1).prod(axis=0), (A[:20, :20] * 0.1 + 1).prod(axis=0),
     exact=False)
T = numpy.zeros((60, 70))
T[7, 3] = T[40, 3] = T[50, 69] = 5.0       # ties: the first index wins
t = np.asarray(T)
keep('argmax', t.argmax(), T.argmax())
keep('argmax0', t.argmax(axis=0), T.argmax(axis=0))
keep('argmin1', i.argmin(axis=1), I.argmin(axis=1))
keep('any_all', np.stack([(a > 3).any(axis=0), (a > -3).all(axis=0)]),
     numpy.stack([(A > 3).any(axis=0), (A > -3).all(axis=0)]))
keep('scalar', float(a[3:90].sum()) + float((a > 0).sum()),
     float(A[3:90].sum()) + float((A > 0).sum()), exact=False)

# boolean masks: indexing and assignment; integer indexing
keep('mask', a[a > 0.5], A[A > 0.5])
d = a.copy()
D = A.copy()
d[d < -0.5] = 0
D[D < -0.5] = 0
keep('mask_set', d, D)
idx = rng0.integers(0, 150, size=300)
keep('take', a[np.asarray(idx)], A[idx])
# gathers along one axis: each task reads its block's rows of the source
keep('take_ax1', np.take(a, [3, -1, 50, 3], axis=1), numpy.take(A, [3, -1, 50, 3], axis=1))
keep('take_wrap', np.take(a[::-2], [200, -7], axis=0, mode='wrap'),
     numpy.take(A[::-2], [200, -7], axis=0, mode='wrap'))
keep('fancy_cols', a[3:140:3, np.asarray(idx[:20] % 97)], A[3:140:3, idx[:20] % 97])
S = numpy.argsort(A, axis=1, kind='stable')
keep('take_along', np.take_along_axis(a, np.asarray(S), axis=1), numpy.take_along_axis(A, S, axis=1))
keep('nonzero', np.nonzero(i > 40)[1], numpy.nonzero(I > 40)[1])
keep('bincount', np.bincount((i.ravel() + 50)), numpy.bincount(I.ravel() + 50))

# scans, sorting
keep('cumsum', np.cumsum(a, axis=0), numpy.cumsum(A, axis=0), exact=False)
keep('cumsum_flat', np.cumsum(i), numpy.cumsum(I))
# the other accumulates: parallel blocks with carries (maximum, fmin,
# bitwise, logical) and chained ones (subtract), NumPy's bits
An = A.copy()
An[40, 5] = An[3, 90] = numpy.nan
an = np.asarray(An)
keep('max_acc0', np.maximum.accumulate(an, axis=0), numpy.maximum.accumulate(An, axis=0))
keep('max_acc1', np.maximum.accumulate(an, axis=1), numpy.maximum.accumulate(An, axis=1))
keep('fmin_acc', np.fmin.accumulate(an.ravel()), numpy.fmin.accumulate(An.ravel()))
keep('sub_acc0', np.subtract.accumulate(an, axis=0), numpy.subtract.accumulate(An, axis=0))
keep('sub_acc1', np.subtract.accumulate(a, axis=1), numpy.subtract.accumulate(A, axis=1))
keep('xor_acc', np.bitwise_xor.accumulate(i, axis=0), numpy.bitwise_xor.accumulate(I, axis=0))
keep('lor_acc', np.logical_or.accumulate(a > 2, axis=1), numpy.logical_or.accumulate(A > 2, axis=1))
# the bitwise and logical_xor reductions (the core's tiled folds)
for k, ax in (('all', None), ('0', 0), ('1', 1)):
    keep('xor_red' + k, np.bitwise_xor.reduce(i, axis=ax), numpy.bitwise_xor.reduce(I, axis=ax))
    keep('and_red' + k, np.bitwise_and.reduce(i, axis=ax), numpy.bitwise_and.reduce(I, axis=ax))
    keep('or_red' + k, np.bitwise_or.reduce(i, axis=ax), numpy.bitwise_or.reduce(I, axis=ax))
    keep('lxor_red' + k, np.logical_xor.reduce(a > 2, axis=ax),
         numpy.logical_xor.reduce(A > 2, axis=ax))
o = np.zeros(I.shape, np.float32)
np.add.accumulate(i, axis=1, out=o)
keep('add_acc_out', o, numpy.add.accumulate(I, axis=1, out=numpy.zeros(I.shape, numpy.float32)))
# reductions into an out= of another dtype, in NumPy's loop: max of uint8
# into int8 compares in int16 from the first element cast into int8 (a fold
# started from one slice, the rest reduced as views), ptp and mean through out
U = (I + 178).astype(numpy.uint8)
u = np.asarray(U)
for ax in (0, 1, None):
    shape = numpy.max(U, axis=ax).shape
    for f in ('max', 'min', 'ptp', 'mean'):
        o = np.zeros(shape, np.int8)
        getattr(np, f)(u, axis=ax, out=o)
        keep(f'{f}_out_{ax}', o, getattr(numpy, f)(U, axis=ax, out=numpy.zeros(shape, numpy.int8)))
o = np.zeros(97, np.float32)
np.sum(a, axis=0, out=o)
keep('sum_out_f32', o, numpy.sum(A, axis=0, out=numpy.zeros(97, numpy.float32)), exact=False)
keep('sort', np.sort(a, axis=1), numpy.sort(A, axis=1))
keep('sort0', np.sort(i, axis=0), numpy.sort(I, axis=0))
keep('argsort', np.argsort(i, axis=1, kind='stable'), numpy.argsort(I, axis=1, kind='stable'))
keep('sort_flat', np.sort(a, axis=None), numpy.sort(A, axis=None))
keep('median', np.median(a, axis=0), numpy.median(A, axis=0))

# matrix products
keep('matmul', a @ b, A @ B, exact=False)
keep('matvec', a @ b[:, 0], A @ B[:, 0], exact=False)
keep('vecmat', a[:, 0] @ a, A[:, 0] @ A, exact=False)
keep('batched', np.matmul(a[:96].reshape(4, 24, 97), b), numpy.matmul(A[:96].reshape(4, 24, 97), B),
     exact=False)
keep('dot', np.dot(a[0], a[1]), numpy.dot(A[0], A[1]), exact=False)

# random numbers: the same stream on any number of ranks
g = np.random.default_rng(7)
keep('rand_normal', g.standard_normal((200, 33)))
keep('rand_int', g.integers(0, 1000, size=5000))
keep('rand_perm', g.permutation(1000))
np.random.seed(3)
keep('rand_legacy', np.random.rand(77, 5))
keep('rand_choice_p', g.choice(50, (40, 30), p=numpy.linspace(1, 2, 50) / 75))
keep('rand_choice_p_noreplace', g.choice(50, 20, replace=False, p=numpy.linspace(1, 2, 50) / 75))

# sums under where= in NumPy's order (its masked loop's runs): NumPy's bits
M = rng0.random((150, 97)) < 0.6
m = np.asarray(M)
keep('sum_where', np.stack([np.sum(a, where=m), np.sum(a, axis=0, where=m)[0],
                            np.sum(a, axis=1, where=m)[0]]),
     numpy.stack([numpy.sum(A, where=M), numpy.sum(A, axis=0, where=M)[0],
                  numpy.sum(A, axis=1, where=M)[0]]))
keep('mean_where', np.mean(a, axis=1, where=m), numpy.mean(A, axis=1, where=M))

# creation, reshapes, joins, and a fallback through NumPy
keep('arange', np.arange(0, 5000, 3, dtype=np.int16))
keep('linspace', np.linspace(-1, 1, 3001))
keep('reshape', a.reshape(97, 150)[::2] * 1, A.reshape(97, 150)[::2] * 1)
keep('concat', np.concatenate([a, a[:10]], axis=0), numpy.concatenate([A, A[:10]], axis=0))
keep('eye', np.eye(70, 90, k=3), numpy.eye(70, 90, k=3))
keep('fallback', np.unique(i), numpy.unique(I))
keep('empty0d', np.asarray(a[:0].sum(axis=0)), A[:0].sum(axis=0))

# linear algebra of a large matrix: the blocked LU's (Cholesky's) pieces are tasks over
# the workers on one process and run one after another in one task on
# ranks (src/ops/linalg.c): the same bits
LA = numpy.eye(520) + rng0.standard_normal((520, 520)) * 0.013
LB = rng0.standard_normal((520, 3))
la = np.asarray(LA)
keep('la_solve', np.linalg.solve(la, np.asarray(LB)), numpy.linalg.solve(LA, LB), exact=False)
keep('la_inv', np.linalg.inv(la), numpy.linalg.inv(LA), exact=False)
LW = rng0.standard_normal((520, 40))    # over 32 right-hand sides: the tiled back-substitution
keep('la_solve_wide', np.linalg.solve(la, np.asarray(LW)), numpy.linalg.solve(LA, LW), exact=False)
# lstsq of a tall matrix: the blocked QR over A and b, then gelsd on R
LQ = numpy.concatenate([LA, LA[:40]])
LQB = numpy.concatenate([LB, LB[:40]])
lq = np.linalg.lstsq(np.asarray(LQ), np.asarray(LQB), rcond=None)
eq = numpy.linalg.lstsq(LQ, LQB, rcond=None)
keep('la_lstsq_x', lq[0], eq[0], exact=False)
keep('la_lstsq_res', lq[1], eq[1], exact=False)
keep('la_lstsq_s', lq[3], eq[3], exact=False)
# stacks of small matrices (order <= 16: gesv's algorithm written out per matrix)
LS = rng0.standard_normal((300, 8, 8)) + 6 * numpy.eye(8)
LT = rng0.standard_normal((300, 8, 3))
keep('la_inv_small', np.linalg.inv(np.asarray(LS)), numpy.linalg.inv(LS), exact=False)
keep('la_solve_small', np.linalg.solve(np.asarray(LS), np.asarray(LT)), numpy.linalg.solve(LS, LT),
     exact=False)
keep('la_slogdet', np.stack(np.linalg.slogdet(la)), numpy.stack(numpy.linalg.slogdet(LA)),
     exact=False)
LP = LA @ LA.T
keep('la_cholesky', np.linalg.cholesky(np.asarray(LP)), numpy.linalg.cholesky(LP), exact=False)
keep('la_qr', np.concatenate(np.linalg.qr(la[:, :515])), numpy.concatenate(numpy.linalg.qr(LA[:, :515])),
     exact=False)
keep('la_qr_c', np.linalg.qr(la[:, :515], mode='complete')[0], numpy.linalg.qr(LA[:, :515], mode='complete')[0],
     exact=False)
keep('la_cholesky_u', np.linalg.cholesky(np.asarray(LP), upper=True),
     numpy.linalg.cholesky(LP, upper=True), exact=False)

# reading an array other ranks hold a copy of, after a write on its owner:
# each rank's copy is replaced by the owner's, and tasks still reading the
# old copy there finish first (the matmul keeps every worker busy, so
# repeat's reads of src wait in the queues while the read of src arrives).
# src is one tile of rank 0 above the inline threshold, with default tiles:
# before the fix ranks 1-3 gave -3 in their part of rep.
np._core.set_tile_bytes(2 << 20)
W = rng0.standard_normal((1200, 1200))
busy = np.asarray(W) @ np.asarray(W)
src = np.arange(40000.0)
rep = np.repeat(src, 20)
src[...] = -3
keep('overwritten', src, numpy.full(40000, -3.0))
keep('read_before_overwrite', rep, numpy.repeat(numpy.arange(40000.0), 20))
keep('busy', busy, W @ W, exact=False)
np._core.set_tile_bytes(4096)

if np.rank() == 0:
    numpy.savez(out_path, **results)
np.barrier()
print(f"ops: {len(results)} results on {np.nranks()} rank(s)")
