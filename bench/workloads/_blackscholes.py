"""Black-Scholes European option pricing (shared by blackscholes_f32/_f64).

The classic benchmark formulation: the cumulative normal distribution is the
Abramowitz-Stegun polynomial approximation (NumPy has no erf), so the program
uses only ufuncs, `abs` and `where`.  Inputs: spot price S, strike X, time
to expiry T (arrays); risk-free rate r and volatility v (scalars).  Outputs:
call and put prices (arrays).  Compulsory traffic per option: read S, X, T and
write call, put = 5 elements.
"""
import numpy

from _common import digest, rng

R, V = 0.02, 0.30
A1, A2, A3, A4, A5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
RSQRT2PI = 0.39894228040143267794
KIND = "memory"


def make_inputs(n, dtype):
    g = rng(1)
    S = g.uniform(5.0, 30.0, n).astype(dtype)
    X = g.uniform(1.0, 100.0, n).astype(dtype)
    T = g.uniform(0.25, 10.0, n).astype(dtype)
    return S, X, T


def cnd(np, d):
    K = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    w = RSQRT2PI * np.exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))))
    return np.where(d > 0, 1.0 - w, w)


def black_scholes(np, S, X, T, r=R, v=V):
    sqrtT = np.sqrt(T)
    d1 = (np.log(S / X) + (r + 0.5 * v * v) * T) / (v * sqrtT)
    d2 = d1 - v * sqrtT
    cnd1 = cnd(np, d1)
    cnd2 = cnd(np, d2)
    disc = X * np.exp(-r * T)
    call = S * cnd1 - disc * cnd2
    put = disc * (1.0 - cnd2) - S * (1.0 - cnd1)
    return call, put


def black_scholes_numexpr(S, X, T, r=R, v=V):
    import numexpr as ne
    # Python float literals are double in numexpr and would turn float32
    # inputs into float64 work, so every constant is passed as a variable of
    # the inputs' dtype.  numexpr has no user functions: cnd is staged as
    # K = 1/(1 + k*|d|), then the polynomial and the where.
    f = S.dtype.type
    c = dict(r=f(r), v=f(v), half=f(0.5), one=f(1.0), zero=f(0.0), k=f(0.2316419),
             a1=f(A1), a2=f(A2), a3=f(A3), a4=f(A4), a5=f(A5), rs=f(RSQRT2PI))

    def ev(expr, **arrays):
        return ne.evaluate(expr, local_dict={**c, **arrays})

    d1 = ev("(log(S / X) + (r + half * v * v) * T) / (v * sqrt(T))", S=S, X=X, T=T)
    d2 = ev("d1 - v * sqrt(T)", d1=d1, T=T)

    def cnd(d):
        K = ev("one / (one + k * abs(d))", d=d)
        return ev("where(d > zero, one - w, w)", d=d,
                  w=ev("rs * exp(-half * d * d) * (K * (a1 + K * (a2 + K * (a3 + K * (a4 + K * a5)))))",
                       d=d, K=K))

    cnd1, cnd2 = cnd(d1), cnd(d2)
    call = ev("S * cnd1 - X * exp(-r * T) * cnd2", S=S, X=X, T=T, cnd1=cnd1, cnd2=cnd2)
    put = ev("X * exp(-r * T) * (one - cnd2) - S * (one - cnd1)", S=S, X=X, T=T, cnd1=cnd1, cnd2=cnd2)
    return call, put


def summarize(out):
    call, put = out
    return {"call": digest(call), "put": digest(put)}
