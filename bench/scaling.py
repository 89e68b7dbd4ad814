#!/usr/bin/env python3
"""Ranks against threads: the same workloads on 1 rank x W workers and on
R ranks x W/R workers, side by side, with the bytes each operation moves.

    python3 bench/scaling.py [--cpus 2] [--ranks 2] [--size 2048] [--repeat 5]

Each configuration runs as its own job through the `ndtile` launcher; rank
0 reports the median time of each workload and the traffic this rank
counted (point-to-point bytes sent and received, collectives) per call. The
table gives ratios (R ranks / 1 rank). See docs/scaling.md.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def workloads(np, n):
    """name -> (setup, step): step(state) is one timed call."""
    def elementwise():
        a = np.random.default_rng(1).standard_normal((n, n))
        return lambda: float((np.sqrt(a * a + 1.0) * 0.5 - a).sum())

    def stencil():
        # random values, not a hot edge on zeros: heat spreading into zeros
        # makes subnormal numbers, many times slower, all on the first rank
        u = np.random.default_rng(6).random((n, n))

        def step():
            u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            np.sync()
        return step

    def reduce_axis0():
        a = np.random.default_rng(2).standard_normal((n, n))
        return lambda: a.sum(axis=0).sum().item()

    def transpose():
        a = np.random.default_rng(3).standard_normal((n, n))
        return lambda: float((a + a.T).max())

    def matmul():
        m = n // 2
        a = np.random.default_rng(4).standard_normal((m, m))
        return lambda: float((a @ a)[0, 0])

    def sort():
        a = np.random.default_rng(5).standard_normal((n // 4, n))
        return lambda: float(np.sort(a, axis=1)[0, 0])

    def small_ops():
        a = np.ones(100)

        def step():
            x = a
            for _ in range(50):
                x = x * 1.0001 + 1e-3
            return float(x[0])
        return step

    return {'elementwise': elementwise, 'stencil': stencil, 'reduce_axis0': reduce_axis0,
            'transpose': transpose, 'matmul': matmul, 'sort': sort, 'small_ops': small_ops}


def child(args):
    import ndtile as np
    out = {}
    for name, setup in workloads(np, args.size).items():
        step = setup()
        step()                       # warm-up
        np.sync()
        np.barrier()
        np.comm_stats(reset=True)
        times = []
        for _ in range(args.repeat):
            np.barrier()
            t0 = time.perf_counter()
            step()
            np.sync()
            times.append(time.perf_counter() - t0)
        c = np.comm_stats()
        k = args.repeat
        out[name] = {'time': statistics.median(times),
                     'sent': c['send_bytes'] / k, 'recv': c['recv_bytes'] / k,
                     'msgs': (c['sends'] + c['recvs']) / k, 'coll': c['collectives'] / k}
    if np.rank() == 0:
        print('RESULT ' + json.dumps({'ranks': np.nranks(), 'workers': np._core.workers(),
                                      'results': out}))


def run_config(args, ranks):
    cmd = [sys.executable, '-m', 'ndtile', '--ranks', str(ranks), '--cpus', str(args.cpus),
           os.path.abspath(__file__), '--child', '--size', str(args.size),
           '--repeat', str(args.repeat)]
    env = dict(os.environ)
    env.pop('NDTILE_WORKERS', None)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    for line in p.stdout.splitlines():
        if line.startswith('RESULT '):
            return json.loads(line[7:])
    sys.exit(f"scaling: the {ranks}-rank run failed:\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cpus', type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument('--ranks', type=int, default=2)
    ap.add_argument('--size', type=int, default=2048)
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--child', action='store_true')
    args = ap.parse_args()
    if args.child:
        return child(args)
    one = run_config(args, 1)
    many = run_config(args, args.ranks)
    r = args.ranks
    print(f"# {args.size}x{args.size} float64; 1 rank x {one['workers']} workers vs "
          f"{r} ranks x {many['workers']} workers ({args.cpus} cpus); median of {args.repeat}")
    print(f"{'workload':<14}{'1 rank ms':>11}{f'{r} ranks ms':>12}{'ratio':>8}"
          f"{'KiB sent/call':>15}{'KiB recv/call':>15}{'msgs/call':>11}{'colls/call':>11}")
    for name, a in one['results'].items():
        b = many['results'][name]
        print(f"{name:<14}{a['time'] * 1e3:>11.2f}{b['time'] * 1e3:>12.2f}"
              f"{b['time'] / a['time']:>8.2f}{b['sent'] / 1024:>15.1f}{b['recv'] / 1024:>15.1f}"
              f"{b['msgs']:>11.1f}{b['coll']:>11.1f}")


if __name__ == '__main__':
    sys.exit(main())
