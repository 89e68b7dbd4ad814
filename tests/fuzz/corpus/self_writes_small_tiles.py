"""Hand-written (session 29, fuzz29): arrays written from themselves, as Gen.selfref makes them -
1-d assignments from overlapping views of other steps (NumPy's in-order loop),
rows and columns broadcast from the array, reductions over transposed views,
fancy keys beside negative steps, in-place operators and out= through aliases,
np.ix_ and nonzero keys, an inverse permutation; many 4 KiB tiles."""
SETTING = 'small_tiles'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(1, (5001,), 'int64', 0))
a0[2::2] = a0[:(5001 - 2 + 1) // 2]  # check
a1 = np.asarray(data(1, (5001,), 'int64', 0))
a1[::3] = a1[1:(5001 + 2) // 3 + 1]  # check
a2 = np.asarray(data(1, (5001,), 'float64', 0))
a2[:5001 // 2] = a2[1::2][:5001 // 2]  # check
a3 = np.asarray(data(1, (5001,), 'float64', 0))
a3[1:5001 // 2 + 1] = a3[::2][:5001 // 2]  # check
a4 = np.asarray(data(1, (5001,), 'int32', 0))
a4[::-2] = a4[5001 // 2 - 1::-1][:(5001 + 1) // 2]  # check
a5 = np.asarray(data(1, (5001,), 'int32', 0))
a6 = a5[::-1]
a6[3::2] = a6[:(5001 - 3 + 1) // 2]  # check
a7 = np.asarray(data(1, (5001,), 'float64', 0))
for i in range(1, 5): a7[i::5] = np.abs(a7[i - 1::5]) + a7[i::5]  # check
a8 = np.asarray(data(1, (60, 60), 'int64', 0))
a8[:, 3] = a8[2]  # check
a8[5, :] = a8[:, 5]  # check
a8[:, -1] = a8[-3, ::-1]  # check
a9 = np.asarray(data(1, (60, 7), 'float32', 0))
a9[1:] = a9[0]  # check
a9[:, 1:] = a9[:, :1]  # check
a9[...] = a9[3]  # check
a9[:, :] = a9[:, 2:3]  # check
a9[::-1] = a9[-1]  # check
a10 = np.asarray(data(3, (5, 60, 6), 'int32', 0))
a10[:, 1:, :] = a10[:, :1, :]  # check
a10[1:] = a10[0, ::-1]  # check
a10[..., ::2] = a10[..., 1::2][..., :3]  # check
a11 = np.asarray(data(4, (60, 37), 'int64', 0))
a12 = a11.T.sum(axis=0)
a13 = a11.T.sum(axis=1)
a14 = a11[::-1, ::2].T.max(axis=0)
a15 = np.add.reduce(a11.T, axis=(0, 1))
a16 = a11.T.cumsum(axis=1)
a17 = a11.T[::-3].min(axis=-1, keepdims=True)
a18 = a11.T.argmax(axis=1)
a19 = a11.T.prod(axis=0, dtype='int64')
a20 = np.asarray(data(6, (60, 9), 'int64', 0))
a21 = a20[::-2][[0, 3, -1, 3]]
a22 = a20[[0, 3, -1, 3]][::-1]
a23 = a20[::-1, [1, -2, 1]]
a24 = a20[[2, 5], ::-3]
a25 = a20[::-3][:, [0, -1]]
a20[::-2][[0, 1, 1]] = -1  # check
a20[::-1, [1, -2]] = a20[:, [0, 0]]  # check
a20[[4, 2, 4], ::-2] += 10  # check
a26 = np.asarray(data(7, (5001,), 'int64', 0))
a27 = a26[::-1]
a27 += a26  # check
a28 = a26[1:]
a28 -= a26[:-1]  # check
a29 = a26.reshape(-1)
a26 *= a29  # check
a30 = a26[::2]
a30 += a26[1::2][:a30.size]  # check
a31 = np.asarray(data(12, (60, 60), 'int64', 0))
np.add(a31, a31.T, out=a31)  # check
np.subtract(a31[1:], a31[:-1], out=a31[:-1])  # check
np.multiply(a31[:, ::-1], a31, out=a31.T)  # check
np.add(a31[0], a31, out=a31)  # check
np.add(a31[:, :1], a31, out=a31)  # check
a32 = np.asarray(data(1, (60, 9), 'int64', 0))
a33 = a32[np.ix_([0, 2, -1, 2], [1, 3])]
a34 = a32[np.ix_(a32[:, 0] > 0, [0, -1])]
a32[np.ix_([1, 3], [0, 0, 2])] = 7  # check
a32[np.ix_([1, 3], [4, 5])] += a32[np.ix_([3, 1], [5, 4])]  # check
a32[np.ix_(a32[:, 1] > 1, a32[0] > 0)] = -2  # check
a35 = a32[::-1][np.ix_([0, 1], [2])]
a36 = np.asarray(data(2, (60, 8), 'int64', 0))
a37 = np.nonzero(a36 > 1)
a38 = a36[np.nonzero(a36 > 1)]
a36[np.nonzero(a36 < 0)] = 0  # check
a36[np.where(a36 == 1)] += 5  # check
a39 = a36.T[np.nonzero(a36.T)]
a40 = np.transpose(np.nonzero(a36))
a41 = np.asarray(data(3, (5001,), 'float64', 1))
a42 = np.argsort(a41, kind='stable')
a43 = np.zeros_like(a42)
a43[a42] = np.arange(5001)  # check
a44 = a41[a42]
a45 = a44[a43]
a46 = np.zeros(5001)
a46[a42[::-1]] = a41  # check
"""

if __name__ == '__main__':
    import os
    import sys
    os.environ.update({'NDTILE_TILE_BYTES': '4096'})
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
