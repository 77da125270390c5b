"""per_hop.png draws a hop's 95% interval as a whisker only where enough questions back it (at n = 2
a bootstrap interval spans 0 to 100), and ttc.png keeps accuracy and F apart where they coincide."""

from __future__ import annotations

from typing import Any

import pytest

from factprobe.decomposition import report as per_hop
from factprobe.eval.ttc import plot as ttc


def entry(n: int) -> dict[str, Any]:
    return {"n": n, "n_with_hops": n, "hop_f_scores": [0.5, 1.0], "final_f_score": 0.5,
            "hop_f_score_cis": [[0.0, 1.0], [0.9, 1.0]], "final_f_score_ci": [0.0, 1.0]}


def kept_figure(module: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    kept: list[Any] = []
    monkeypatch.setattr(module, "save_figure", lambda figure, path, dpi: kept.append(figure))
    return kept


def test_whiskers_only_where_n_allows(tmp_path, monkeypatch) -> None:
    kept = kept_figure(per_hop, monkeypatch)
    small, large = per_hop.MIN_INTERVAL_ROWS - 1, per_hop.MIN_INTERVAL_ROWS
    per_hop.per_hop_plot({"per_hop": {"vanilla": {"2": entry(small)}, "rag": {"2": entry(large)}}}, [], tmp_path)
    [axis] = kept[0].axes
    whiskers = [container for container in axis.containers if getattr(container, "errorbar", None)]
    with_whiskers = {container.get_label() for container in whiskers if container.errorbar is not None}
    assert with_whiskers == {"rag"}
    assert f"n ≥ {large}" in kept[0]._suptitle.get_text()


def test_accuracy_and_f_lines_stay_distinguishable(tmp_path, monkeypatch) -> None:
    kept = kept_figure(ttc, monkeypatch)
    same = [0.5, 0.6, 0.7]
    ttc.ttc_plot({"ttc": {"best_of_n": {"n": [1, 2, 4], "accuracy": same, "f_score": same, "unit": "samples",
                                        "selector": "model"}}}, [], tmp_path)
    accuracy, f_score = kept[0].axes[0].get_lines()[:2]
    assert list(accuracy.get_ydata()) == list(f_score.get_ydata())          # the same values...
    assert accuracy.get_linestyle() != f_score.get_linestyle()              # ...drawn apart
    assert f_score.get_markerfacecolor() == "none" and f_score.get_markersize() > accuracy.get_markersize()
