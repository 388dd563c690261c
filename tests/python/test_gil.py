"""Simulations release the GIL: other Python threads make progress during a run."""

import threading

import niclab


def _run_while_counting(work):
    """Run `work()` in a thread while this thread counts; returns (its result, the ticks
    counted before it started, the ticks counted when it returned)."""
    ticks = 0
    marks = {}

    def worker():
        marks["before"] = ticks
        marks["result"] = work()
        marks["after"] = ticks

    t = threading.Thread(target=worker)
    t.start()
    while t.is_alive():
        ticks += 1
    t.join()
    return marks["result"], marks["before"], marks["after"]


def test_main_thread_progresses_while_a_run_is_in_flight():
    # counter sleeps in wfi between increments: a long simulated run with little
    # work per microsecond. The watchdog is off so nothing stops it early.
    sys_ = niclab.System({"firmware": "counter", "set": {"core.watchdog_us": 0}})
    result, before, after = _run_while_counting(lambda: sys_.run(until_us=400_000))
    assert result["reached_us"] == 400_000
    # Only possible if the worker let go of the GIL while inside run().
    assert after > before


def test_the_gil_is_released_during_an_experiment():
    result, before, after = _run_while_counting(lambda: niclab.run("pingpong", max_size=65536))
    assert len(result) > 10
    assert after > before
