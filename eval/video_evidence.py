"""Post step `video_evidence`: did a question about a video reach the model with its video?

For a question with a `media_id` the row records `media_id` and `media_given`: whether the
strategy's last prompt carried any non-text part (an image or video part in a message's content
list). A text-only run has `media_given` false everywhere, and its answers show how often the model
answers without the evidence the question needs (summary `video_evidence`).
"""

from __future__ import annotations

from typing import Any

from factprobe.eval.post_steps import PostStepInput, register_post_step


def carries_media(messages: list[dict[str, Any]]) -> bool:
    """True when some message's content is a list of parts with a part that is not text."""
    for message in messages:
        content = message.get("content")
        if isinstance(content, list) and any(isinstance(part, dict) and part.get("type", "text") != "text"
                                             for part in content):
            return True
    return False


@register_post_step("video_evidence", enabled=lambda config: True)
async def video_evidence(data: PostStepInput) -> dict[str, Any]:
    if data.question.media_id is None:
        return {}
    return {"media_id": data.question.media_id,
            "media_given": carries_media(data.state.get("messages") or [])}
