"""The docs: docs/contract.md is what the TypedDicts give (the JSON contract
is written down once, in pychessdraw/contract.py), and `make docs` builds
the API reference."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("pychessdraw_docs_build", ROOT / "docs" / "build.py")
assert _spec is not None and _spec.loader is not None
docs_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(docs_build)


def test_contract_page_is_generated_from_the_typeddicts() -> None:
    text = docs_build.render_contract()
    assert (ROOT / "docs" / "contract.md").read_text() == text, (
        "docs/contract.md is stale: run `make docs` (it is generated from pychessdraw/contract.py)"
    )
    for name in ("StatusDict", "ClaimDict", "OutcomeDict", "ClaimResultDict", "ErrorDict", "LegalMoveDict"):
        assert f"## {name}" in text
    assert "| `ended_by` |" in text and "| `legal_moves` | [[LegalMoveDict](#legalmovedict), ...] |" in text


def test_readme_links_the_contract_and_the_api_reference() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "docs/contract.md" in readme and "make docs" in readme and "make test-quick" in readme


@pytest.mark.slow
def test_make_docs_builds_the_api_reference(tmp_path: Path) -> None:
    if importlib.util.find_spec("pdoc") is None:
        pytest.skip("pdoc is not installed: pip install -e '.[test]'")
    code = (
        "import importlib.util, sys; from pathlib import Path; "
        f"spec = importlib.util.spec_from_file_location('docs_build', {str(ROOT / 'docs' / 'build.py')!r}); "
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
        f"m.build_api(Path({str(tmp_path)!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    game = (tmp_path / "pychessdraw" / "game.html").read_text()
    assert "claim_draw" in game and "checkmate" in game
    assert "promotion_needed" in (tmp_path / "pychessdraw" / "errors.html").read_text()
    bridge = docs_build.render_bridge_contract()
    assert "## Reply" in bridge and "## EngineFactsDict" in bridge
