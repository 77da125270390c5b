"""summary.json from results.jsonl: SimpleQA scores, paired gains with clustered statistics, repeats,
retrieval and grading counts, and the section registry measurement folders add to.

May import: core, store, config, grading, datasets, media, agents, retrieval.
"""
