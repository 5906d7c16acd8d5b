import pytest

from workbench.engine import TIC_TAC_TOE, analyze_all
from workbench.engine.symmetry import transforms


@pytest.fixture(scope="session")
def all_analyses():
    return analyze_all(TIC_TAC_TOE)


SYMMETRIES = transforms(TIC_TAC_TOE)


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path_factory, monkeypatch):
    """No test may touch the user's real library or cache: both live in temp folders."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


def pytest_collection_modifyitems(config, items):
    """Tests that drive the whole app (Pilot, snapshots) are marked ``app``: ``-m "not app"`` runs the fast rest."""
    for item in items:
        if item.module.__name__.rsplit(".", 1)[-1].startswith("test_tui_"):
            item.add_marker(pytest.mark.app)
