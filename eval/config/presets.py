"""`--preset NAME`: a benchmark's own settings in one flag, and the run's answer prompt.

A preset fills in the options the user did not give (anything given on the command line or in a
sweep wins), and names the benchmark's answer prompt and reply format
(factprobe.agents.benchmark_prompts; `--prompt-file` replaces the prompt, `--reply-format` the
format). What each preset sets, from the five papers' protocols and their released evaluation code:

Every preset names the strategies that fit its benchmark (none retrieves: no benchmark ships a text
corpus); `--strategies` replaces them, and `--answers FILE` without it runs the recorded strategy alone.

- videosimpleqa: vanilla; the JSON answer prompt with a 0–100 confidence; the Video SimpleQA judge prompt,
  the judge shown the frames (with --judge; `--judge-media frames`, as its released grader);
  equivocal answers penalised (the paper's rule); 32 frames; up to 1,024 answer tokens.
- worldvqa: vanilla; the detailed-answer prompt with a 0–100 confidence (in Chinese for `language` zh); the
  WorldVQA judge prompt (with --judge); hedged answers judged by what they commit to (the paper's
  judge credits a hedged answer whose guess is a finer kind of the gold, and marks a hedged guess
  wrong because the guess is wrong: a hedge neither rescues nor sinks an answer, which is
  `--hedging accept`); up to 512 answer tokens.
- mmsap: the option-letter prompt; strategies vanilla and refusal (the refusal option offered,
  refused questions re-asked without it); 5 repeats, each with all five options shuffled, the
  refusal option among them (`--option-order shuffle-all`).
- mmworld: vanilla; the letter-only prompt; 10 scene-change keyframes (the paper's API models saw 10
  keyframes, chosen by Katna; `--frame-sampling keyframes` is our own selection); the options in
  their released order (`--option-order released`); with --judge, the judge's True/False on the
  free answer (`--choice-grading judge`, MMWorld's released evaluation).
- worldsense: vanilla; the letter-only prompt; 16 frames (the paper's setting for GPT-4o and Claude) at
  VLMEvalKit's positions (`--frame-sampling vlmevalkit`, the evaluation code it used); the options in
  their released order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factprobe.agents.benchmark_prompts import BENCHMARK_PROMPTS, LOWER_CASE_LETTERS, SYSTEM_ZH, check_template

PRESET_SETTINGS: dict[str, dict[str, Any]] = {
    "videosimpleqa": {"strategies": ["vanilla"], "judge_prompt": "videosimpleqa", "judge_media": "frames",
                      "hedging": "penalize", "frames": 32, "max_tokens": 1024},
    "worldvqa": {"strategies": ["vanilla"], "judge_prompt": "worldvqa", "hedging": "accept", "max_tokens": 512},
    "mmsap": {"strategies": ["vanilla", "refusal"], "repeats": 5, "option_order": "shuffle-all"},
    "mmworld": {"strategies": ["vanilla"], "frames": 10, "frame_sampling": "keyframes", "option_order": "released",
                "choice_grading": "judge"},
    "worldsense": {"strategies": ["vanilla"], "frames": 16, "frame_sampling": "vlmevalkit", "option_order": "released"},
}


# A detailed reply (`--reply-format free`, WorldVQA's "as much detail as possible") with its
# confidence at the end needs room: the WorldVQA preset's answer tokens.
DETAILED_REPLY_TOKENS = 512


def with_preset(data: Any) -> Any:
    """The options as given, with the preset's settings for those not given. Without a preset, a
    prompt file whose replies are read whole (`--reply-format free`) gets DETAILED_REPLY_TOKENS
    answer tokens unless --max-tokens is given."""
    if isinstance(data, dict) and data.get("preset") is None and data.get("prompt_file") is not None \
            and data.get("reply_format") == "free" and data.get("max_tokens") is None:
        return {**data, "max_tokens": DETAILED_REPLY_TOKENS}
    if not isinstance(data, dict) or data.get("preset") not in PRESET_SETTINGS:
        return data
    settings = dict(PRESET_SETTINGS[data["preset"]])
    if data.get("judge") is None:
        for name in ("judge_prompt", "judge_media", "choice_grading"):   # these apply once a judge is given
            settings.pop(name, None)
    if data.get("answers"):            # the recorded strategy grades the file's answers (RunConfig)
        settings.pop("strategies", None)
    return {**settings, **data}


def read_prompt_file(path: Path) -> str:
    """The prompt file's text, checked: readable UTF-8, not empty, only named placeholders."""
    try:
        text = path.expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot be read as UTF-8 text ({exc})") from None
    if not text.strip():
        raise ValueError(f"{path}: the prompt file is empty")
    check_template(text, str(path))
    return text


def answer_prompt(preset: str | None, prompt_file: Path | None, reply_format: str | None) -> dict[str, str] | None:
    """The run's answer prompt {system, user, reply_format, source}; None: the strategies' own."""
    if preset is None and prompt_file is None:
        return None
    system, user, preset_format = BENCHMARK_PROMPTS[preset] if preset else ("", "", "lines")
    source = f"preset {preset}" if preset else ""
    system_zh = SYSTEM_ZH.get(preset or "", "")
    if prompt_file is not None:
        system, system_zh, user, source = "", "", read_prompt_file(prompt_file), f"prompt file {prompt_file}"
    prompt = {"system": system, "user": user, "reply_format": reply_format or preset_format, "source": source}
    if preset in LOWER_CASE_LETTERS:   # the release's letters, kept with a prompt file of one's own too
        prompt["letter_case"] = "lower"
    return {**prompt, "system_zh": system_zh} if system_zh else prompt
