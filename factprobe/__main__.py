"""`python -m factprobe ARGS`: the `factprobe` command, as the installed script runs it."""

import sys

from factprobe.eval.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
