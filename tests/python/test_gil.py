"""System.run releases the GIL: other Python threads make progress during a run."""

import threading

import niclab


def test_main_thread_progresses_while_a_run_is_in_flight():
    # counter sleeps in wfi between increments: a long simulated run with little
    # work per microsecond. The watchdog is off so nothing stops it early.
    sys_ = niclab.System({"firmware": "counter", "set": {"core.watchdog_us": 0}})
    ticks = 0
    marks = {}

    def worker():
        marks["before"] = ticks
        marks["result"] = sys_.run(until_us=400_000)
        marks["after"] = ticks

    t = threading.Thread(target=worker)
    t.start()
    while t.is_alive():
        ticks += 1
    t.join()
    assert marks["result"]["reached_us"] == 400_000
    # Only possible if the worker let go of the GIL while inside run().
    assert marks["after"] > marks["before"]
