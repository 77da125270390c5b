"""Dataset loaders, one module per released format (`name:PATH` on the command line), the bundled
`sample`, stratified subsets and `datasets describe`.

May import: core, store.
"""
