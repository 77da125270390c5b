"""Multi-hop questions: decomposition, the `decompose` strategy, and per-hop evaluation.

- `decomposer`: plans of single-fact sub-questions with `#k` references (`--decomposer model|gold`),
  validated (at most MAX_HOPS hops, references to earlier hops only; otherwise one hop).
- `strategy`: the `decompose` graph (plan → answer each hop with earlier answers substituted →
  the last hop's answer is the final answer); per-hop retrieval under `decompose+rag`.
- `hop_steps`: post steps: the sub-QA probes every strategy gets on multi-hop questions, and
  grading a decomposing strategy's own hops.
- `sections`: summary.json `per_hop` and `decomposition`; `report`: their tables and per_hop.png.

See decomposition/README.md for the definitions and the choices made.
A measurement folder: may import factprobe.eval's run, report, analysis and everything below them.
"""

if __name__ != "factprobe.decomposition":   # one import path; a second would make a second copy of every class
    raise ImportError(f"import factprobe.decomposition, not {__name__}: the folder decomposition/ is the package "
                      "factprobe.decomposition (README \"Layout\")")
