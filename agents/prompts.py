"""Prompt texts used by the strategies. Each has a version recorded in the manifest."""

from __future__ import annotations

PROMPTS_VERSION = "3"

# The answer format is taught by worked examples given as earlier chat turns: measured on the
# embedded SmolLM2-135M, a format described in words gave 0 of 8 parseable confidences and
# sentence-long answers, while these examples gave 7 of 8 and short answers. The facts in the
# examples are not in any bundled dataset.
ANSWER_EXAMPLES: tuple[tuple[str, str, int], ...] = (
    ("Which element has the chemical symbol O?", "Oxygen", 95),
    ("Which city hosted the 1908 Summer Olympics?", "London", 60),
    ("In which year was the composer of the opera 'Iphigénie en Tauride' born?", "1714", 25),
)

ANSWER_FORMAT = "Reply with the two lines \"Answer: …\" and \"Confidence: …%\" as before."

VANILLA_SYSTEM = ("You answer factual questions with a short best guess and a confidence from 0 to 100 "
                  "that your answer is correct.")

VANILLA_USER = "{question_block}"

# refusal (MM-SAP, docs/protocols.md §6): the vanilla prompt with the fixed refusal option instead of
# "give your best guess".
REFUSAL_USER = ("{question_block}\n\nIf you do not know the answer, write exactly "
                "\"Sorry, I can't help with it\" as your answer. " + ANSWER_FORMAT)

# Input settings (factprobe.eval.core.modality): a line before the question, in every call a
# strategy makes, saying what accompanies it (none before a prompt file's text, which is sent as written).
MEDIA_NOTE = ("The {count} attached images show what the question is about (a video's frames are "
              "in playback order).")
IMAGE_NOTE = "The attached image shows what the question is about."
CAPTION_NOTE = "Description of the video or image the question is about: {caption}"

# best_of_n with `--selector model`: the model picks the best of its numbered samples.
SELECT_SYSTEM = "You judge answers to factual questions."
SELECT_USER = ("{question_block}\n\nCandidate answers:\n{candidates}\n\n"
               "Which candidate is most likely correct? Reply with one line:\nBest: <candidate number>")

# self_refine: self-feedback with a verdict line, then a refined answer.
FEEDBACK_SYSTEM = "You check answers to factual questions for errors."
FEEDBACK_USER = ("{question_block}\nProposed answer: {answer}\n\n"
                 "Is the proposed answer correct? Point out any factual error in one or two sentences, "
                 "then end with one line:\nVerdict: KEEP if the answer is correct, or "
                 "Verdict: REVISE if it should change.")
REFINE_USER = ("{question_block}\nPrevious answer: {answer}\nFeedback: {feedback}\n\n"
               "Using the feedback, give your final answer. " + ANSWER_FORMAT)

# decompose: the instruction, then worked examples as earlier chat turns (a 135M model follows
# a numbered format shown in assistant turns, not one described in words).
DECOMPOSE_SYSTEM = "You split questions into simple sub-questions."
DECOMPOSE_USER = ("Split the question into at most {max_hops} numbered sub-questions that each ask for "
                  "one fact. Write #1, #2, ... for the answer to an earlier sub-question. The last "
                  "sub-question asks for the answer to the whole question.\n\n{question_block}")
DECOMPOSE_EXAMPLES = (
    ("What is the currency of the country whose capital is Vientiane?",
     "1. Which country has Vientiane as its capital?\n2. What is the currency of #1?"),
    ("In which year was the university attended by the inventor of the Dvorak keyboard founded?",
     "1. Who invented the Dvorak keyboard?\n2. Which university did #1 attend?\n"
     "3. In which year was #2 founded?"),
    ("What is the chemical symbol for tungsten?", "1. What is the chemical symbol for tungsten?"),
)


def question_block(question: str, passages: list[dict] | None = None) -> str:
    """The question, preceded by retrieved passages when a strategy runs with retrieval.

    Every strategy builds its prompts with this, so `X+rag` works for any strategy X. `passages`
    come best first; they are listed best last, next to the question: on the embedded SmolLM2-135M
    (sample, 16 questions, top 3) this order raised RAG's F-score from 16.7 to 50.0 (vanilla 33.3).
    """
    if not passages:
        return f"Question: {question}"
    lines = ["Use these passages if they help:"]
    for number, passage in enumerate(reversed(passages), start=1):
        title = f" ({passage['title']})" if passage.get("title") else ""
        lines.append(f"[{number}]{title} {passage['text']}")
    lines.append("")
    lines.append(f"Question: {question}")
    return "\n".join(lines)


def format_answer(answer: str, confidence: int) -> str:
    """An assistant turn in the answer format the examples teach."""
    return f"Answer: {answer}\nConfidence: {confidence}%"


def answer_messages(user_content: str, system: str = VANILLA_SYSTEM) -> list[dict[str, str]]:
    """System line, the worked examples as earlier turns, then `user_content` as the last turn."""
    messages = [{"role": "system", "content": system}]
    for question, answer, confidence in ANSWER_EXAMPLES:
        messages.append({"role": "user", "content": question_block(question)})
        messages.append({"role": "assistant", "content": format_answer(answer, confidence)})
    messages.append({"role": "user", "content": user_content})
    return messages
