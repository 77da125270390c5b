"""`--entity-model`: one model names the RAG entities for every model under test (Video SimpleQA's
RAG had GPT-4o read them off the video and question for all). Loaded and reached before any question
as the judge is; it gets each question with the same attachments as the model under test, so a run
that shows images refuses a text-only entity model at once."""

from __future__ import annotations

from factprobe.agents.models.base import ChatModel
from factprobe.agents.models.registry import RequestLimits
from factprobe.agents.registry import describes
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from factprobe.eval.grading.judge_loader import load_judge
from factprobe.eval.media.attach import AttachingModel, MediaRefusedError, attaches_images
from factprobe.eval.media.attach import check_model_reads_images as check_reads_images


def load_entity_model(config: RunConfig, questions: list[Question], limits: RequestLimits) -> ChatModel | None:
    """The model `--entity-model` names, wrapped to carry each job's attachments; None when the
    option is unset or no strategy of the run retrieves (nothing would ask it)."""
    retrieving = [name for name in config.strategies if describes(name, "retrieves")]
    if config.entity_model is None or not retrieving:
        return None
    model = load_judge(config.entity_model, use_cache=config.use_cache, threads=config.threads, limits=limits,
                       flag="--entity-model")
    try:
        check_reads_images(model, attaches_images(questions, retrieving, config.media), config.media)
    except MediaRefusedError as exc:
        raise MediaRefusedError(f"--entity-model: {exc}") from None
    return AttachingModel(model)
