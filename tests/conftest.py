import pytest

from workbench.engine import TIC_TAC_TOE, analyze_all
from workbench.engine.symmetry import transforms


@pytest.fixture(scope="session")
def all_analyses():
    return analyze_all(TIC_TAC_TOE)


SYMMETRIES = transforms(TIC_TAC_TOE)
