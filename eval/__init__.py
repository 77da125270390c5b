"""factprobe's evaluation, in layers named in pipeline order (each subpackage's docstring says what
it owns and what it may import; pyproject.toml's import-linter contracts enforce it):

    core      the data model (questions, rows, grades), extension registries, errors, formats
    store     files on disk: the run directory, slim rows, the cache directory's stores
    config    a run's options and their validation
    datasets  loaders, one module per released format        grading   rules, judge, cascade
    media     images and videos attached to questions
    analysis  summary.json: scores, gains, statistics, sections
    report    terminal tables, plots, report.html
    run       the pipeline that answers, grades and records; sweeps
    ttc, multiple_choice, self_awareness, taxonomy, video
              one folder per measurement: its post step, summary section, table and plot together
              (as factprobe.calibration and factprobe.decomposition)
    api, cli  the Python API's functions and the command line

Below all of them are factprobe.agents (models and strategies) and factprobe.retrieval
(retrievers), which import only core and store.
"""

if __name__ != "factprobe.eval":   # one import path; a second would make a second copy of every class
    raise ImportError(f"import factprobe.eval, not {__name__}: the folder eval/ is the package "
                      "factprobe.eval (README \"Layout\")")
