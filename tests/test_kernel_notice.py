"""The compiled core's notice: a slow first use says it is compiling, a quick one says nothing."""

import io
import time

from nemeton.engine.kernel import compile_notice


def test_a_slow_warm_up_says_it_is_compiling_and_how_long_it_took(monkeypatch):
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    out = io.StringIO()
    seconds = compile_notice("Test-slow", lambda: time.sleep(0.5), stream=out, after=0.1)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Compiling the Test-slow kernel (first use only: it is cached on disk for later runs)..."
    assert lines[1] == f"The Test-slow kernel is compiled ({seconds:.1f} s)." and seconds >= 0.5
    assert compile_notice("Test-slow", lambda: time.sleep(0.5), stream=out, after=0.1) == 0.0  # once per process


def test_a_quick_warm_up_says_nothing():
    out = io.StringIO()
    compile_notice("Test-quick", lambda: None, stream=out, after=5.0)
    assert out.getvalue() == ""
