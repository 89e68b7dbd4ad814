"""Logistic regression by batch gradient descent.

X is n x d float64, labels y in {0, 1} drawn from a true weight vector.
Each iteration: p = sigmoid(X @ w); w -= lr * X.T @ (p - y) / n.  Two
passes over X per iteration (a matrix-vector product each way), so the
compulsory traffic is 2 * n * d * 8 bytes per iteration.
"""
import numpy

from _common import rng

DESCRIPTION = "logistic regression, gradient descent"
SIZES = {"full": 150_000, "quick": 10_000}    # samples
D, ITERS, LR = 64, 20, 0.5
TOL = {"rtol": 1e-8, "atol": 1e-10}
KIND = "memory"


def bytes_moved(n):
    return ITERS * 2 * n * D * 8


def setup(np, n):
    g = rng(7)
    X = g.standard_normal((n, D))
    w_true = g.standard_normal(D)
    y = (g.random(n) < 1.0 / (1.0 + numpy.exp(-X @ w_true))).astype(numpy.float64)
    return np.asarray(X), np.asarray(y)


def kernel(np, X, y):
    n = X.shape[0]
    w = np.zeros(X.shape[1])
    for _ in range(ITERS):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        w = w - LR * (X.T @ (p - y)) / n
    return numpy.asarray(w)


def summarize(out):
    return {"w": numpy.asarray(out)}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
