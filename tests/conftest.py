"""Shared settings for the whole test suite."""

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # With NUMBA_DISABLE_JIT=1 the splitmix64 generator (rules.rng_next) runs on numpy
    # uint64 scalars, whose intended wrap-around multiplication numpy reports as overflow.
    config.addinivalue_line(
        "filterwarnings", "ignore:overflow encountered in scalar:RuntimeWarning"
    )
