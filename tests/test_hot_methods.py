"""The methods of the Python API that run at every decision (``splendor.views.hot_methods``):
they call the compiled kernels' entry points, fetched at the first call."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

from splendor import classic, duel
from splendor.jit import compiled_entry
from splendor.views import hot_methods


@pytest.mark.parametrize("module", [classic, duel])
def test_first_calls_from_many_threads_at_once(module) -> None:
    """Threads that make the first calls together (the web server replays games in
    threads) each get the right entry points: once, two of them fetching at the same time
    left ``apply`` calling the legal-mask kernel."""
    start = module.new_game(2, 1)
    errors: list[BaseException] = []
    old = sys.getswitchinterval()
    sys.setswitchinterval(2e-5)  # switch threads as often as possible
    try:
        for _ in range(3):
            methods = hot_methods(module.State._game)  # fresh closures: nothing fetched yet
            barrier = threading.Barrier(8)

            def play(methods: dict = methods, barrier: threading.Barrier = barrier) -> None:
                try:
                    st = start.copy()
                    barrier.wait()
                    for _ in range(10):
                        legal = methods["legal_actions"](st)
                        mask = methods["legal_mask"](st)
                        assert [a.id for a in legal] == np.flatnonzero(mask).tolist()
                        methods["apply"](st, legal[-1])
                except BaseException as e:  # noqa: BLE001 - reported below
                    errors.append(e)

            threads = [threading.Thread(target=play) for _ in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors[0]


def test_observation_methods_read_a_read_only_array() -> None:
    st = duel.new_game(2, 3)
    obs = st.observation(0)
    assert not obs._a.flags.writeable
    assert obs.legal_actions() == st.legal_actions()
    assert np.array_equal(obs.legal_mask(), st.legal_mask())


def test_a_state_refuses_a_read_only_array() -> None:
    a = classic.new_game(2, 0).array
    a.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        classic.State(a)


def test_compiled_entry_without_compiled_code_is_the_function() -> None:
    def plain(x: int) -> int:
        return x + 1

    assert compiled_entry(plain, 1) is plain
