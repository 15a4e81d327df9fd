"""Ctrl+C stops a long search: the search runs without the GIL while the calling thread
watches for signals, cancels the search and raises KeyboardInterrupt."""

import _thread
import signal
import sys
import threading

import numpy as np
import pytest

import gridpath


def interrupt_inside(call):
    """Runs `call()` on this (the main) thread while a helper thread waits until this thread
    is inside the native call and then sends it SIGINT's KeyboardInterrupt, as Ctrl+C would.
    Returns whether the call raised KeyboardInterrupt, and whether the helper saw the call
    running before it interrupted."""
    main = threading.get_ident()
    inside = threading.Event()
    done = threading.Event()

    def helper():
        while not done.is_set():
            frame = sys._current_frames().get(main)
            # `call`'s frame is on top only while it runs the native call, which releases
            # the GIL for this thread to look.
            if frame is not None and frame.f_code is call.__code__:
                inside.set()
                _thread.interrupt_main()
                return

    # A process started in the background by a shell inherits SIGINT ignored, and then
    # Python leaves it ignored: `interrupt_main` would do nothing. Ctrl+C's own handler, for
    # the test's length.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    thread = threading.Thread(target=helper)
    thread.start()
    interrupted = False
    try:
        call()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        done.set()
        thread.join()
        signal.signal(signal.SIGINT, previous)
    return interrupted, inside.is_set()


def enclosed_goal_map(side):
    costs = np.ones((side, side))
    costs[side - 3, side - 3 :] = np.inf
    costs[side - 3 :, side - 3] = np.inf
    return gridpath.Map.from_numpy(costs)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is simulated on POSIX here")
def test_ctrl_c_interrupts_a_long_search_and_the_map_still_searches():
    m = enclosed_goal_map(1500)
    interrupted, inside = interrupt_inside(
        lambda: m.find_path((0, 0), (1499, 1499), algorithm="dijkstra")
    )
    assert inside and interrupted
    # The searcher the cancelled search used is back in the map's pool, in working order.
    path = m.find_path((0, 0), (10, 10))
    assert path.found and path.cost == pytest.approx(10 * np.sqrt(2))


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is simulated on POSIX here")
def test_ctrl_c_interrupts_a_batch():
    m = enclosed_goal_map(800)
    pairs = [((0, i), (799, 799)) for i in range(64)]
    interrupted, inside = interrupt_inside(
        lambda: m.find_paths(pairs, algorithm="dijkstra", jobs=2)
    )
    assert inside and interrupted


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is simulated on POSIX here")
def test_ctrl_c_interrupts_the_build_of_a_hierarchy():
    m = gridpath.Map.from_numpy(np.ones((400, 400)))
    interrupted, inside = interrupt_inside(
        lambda: m.find_path((0, 0), (399, 399), algorithm="ch")
    )
    assert inside and interrupted
    path = m.find_path((0, 0), (10, 10))
    assert path.found and path.cost == pytest.approx(10 * np.sqrt(2))
