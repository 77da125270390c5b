"""The run's progress line shows the retries made since it started ("retries: 12, last HTTP 429"),
so a run that slows down because the server rate-limits or fails says so while it waits."""

from __future__ import annotations

from rich.progress import ProgressColumn, Task
from rich.text import Text

from factprobe.eval.core.retry import RETRIES, RetryTally


class RetriesColumn(ProgressColumn):
    """Retries since the column was made (nothing while there are none); read at every refresh."""

    def __init__(self, tally: RetryTally = RETRIES) -> None:
        super().__init__()
        self.tally = tally
        self.start = tally.count

    def render(self, task: Task) -> Text:
        made = self.tally.count - self.start
        if not made:
            return Text("")
        return Text(f"retries: {made}, last {self.tally.last}", style="yellow")
