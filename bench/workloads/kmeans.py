"""k-means (Lloyd's algorithm) on n points in d dimensions, k clusters.

Distances by the expansion |x|^2 - 2 x.c + |c|^2 (a matrix product), labels
by argmin, new centroids as one-hot^T @ X divided by the cluster sizes: no
Python loop over points or clusters.  Fixed iterations, initial centroids =
the first k points.  The data are well-separated Gaussian blobs, so labels
are unambiguous and every library converges to the same centroids.
"""
import numpy

from _common import rng

DESCRIPTION = "k-means, Lloyd iterations, matmul distances"
SIZES = {"full": 200_000, "quick": 20_000}    # points
D, K, ITERS = 8, 16, 10
TOL = {"rtol": 1e-8, "atol": 1e-8}
KIND = "mixed"


def setup(np, n):
    g = rng(6)
    centres = g.uniform(-20.0, 20.0, (K, D))
    X = centres[g.integers(0, K, n)] + g.standard_normal((n, D))
    return (np.asarray(X),)


def kernel(np, X):
    C = X[:K].copy()
    x2 = (X * X).sum(axis=1)[:, None]
    ks = np.arange(K)
    for _ in range(ITERS):
        dist = x2 - 2.0 * (X @ C.T) + (C * C).sum(axis=1)[None, :]
        labels = dist.argmin(axis=1)
        onehot = (labels[:, None] == ks[None, :]).astype(X.dtype)
        counts = onehot.sum(axis=0)
        C = (onehot.T @ X) / np.maximum(counts, 1.0)[:, None]
    return numpy.asarray(C), numpy.asarray(counts)


def summarize(out):
    C, counts = out
    return {"centroids": numpy.asarray(C), "counts": numpy.asarray(counts).astype(numpy.int64)}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
