"""NDTILE_PROFILE=file writes a Chrome trace of the tasks at exit."""
import json
import os
import subprocess
import sys


def test_profile_writes_chrome_trace(tmp_path):
    path = tmp_path / "trace.json"
    code = ("import ndtile as np\n"
            "a = np.ones((1000, 1000)); b = (a * 2 + 1).sum(axis=0); print(float(b[0]))\n")
    env = dict(os.environ, NDTILE_PROFILE=str(path), NDTILE_TILE_BYTES="65536")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) == 3000.0
    trace = json.loads(path.read_text())
    tasks = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert tasks and all(e["dur"] >= 0 and e["ts"] >= 0 for e in tasks)
    names = {e["name"] for e in tasks}
    assert "sum" in names
    assert {"M"} <= {e["ph"] for e in trace["traceEvents"]}
