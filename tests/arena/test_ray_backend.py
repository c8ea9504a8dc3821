"""The ray backend on a local Ray instance gives the same results as the serial one."""

from __future__ import annotations

import pytest

from splendor.arena import run_arena

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.slow  # starting Ray takes ~10 s


def test_ray_backend_matches_serial(tmp_path):
    serial = run_arena(
        "random,greedy,random",
        game="classic",
        games=6,
        seed=7,
        backend="serial",
        out=tmp_path / "s",
        bootstrap=30,
    )
    assert not ray.is_initialized()
    # no address: the arena starts a local Ray instance (2 CPUs) and shuts it down after
    on_ray = run_arena(
        "random,greedy,random",
        game="classic",
        games=6,
        seed=7,
        backend="ray",
        workers=2,
        out=tmp_path / "r",
        bootstrap=30,
    )
    assert not ray.is_initialized()
    assert on_ray["run"]["backend"] == "ray"
    strip = lambda r: {k: v for k, v in r.items() if k != "run"}  # noqa: E731
    assert strip(on_ray) == strip(serial)
    assert len(list((tmp_path / "r" / "games").glob("*.json"))) == 6
