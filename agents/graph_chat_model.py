"""The run's model as a LangChain chat model, for a user's graph written against LangChain.

`runtime.context.chat_model` in a node of a `graph_strategy` graph: `await chat.ainvoke(messages)`
asks the run's `--model` (through its response cache, with the repeat's seed) exactly as
`runtime.context.ask` does, and the call is recorded once, as `ask` records it (the graph's
LangChain usage callback leaves these calls to it). The run's model is asynchronous: use
`ainvoke`/`astream` in `async def` nodes; `invoke` says so.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

# set in a result's llm_output: the call is already recorded by GraphContext.ask
RECORDED = "factprobe_recorded"
ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def as_message(message: BaseMessage) -> dict[str, Any]:
    """A LangChain message as the chat message the run's model takes."""
    return {"role": ROLES.get(message.type, message.type), "content": message.content}


class RunChatModel(BaseChatModel):
    """The run's model behind LangChain's chat-model interface (see the module docstring)."""

    graph_context: Any = None     # the node's GraphContext
    purpose: str = "chat_model"

    @property
    def _llm_type(self) -> str:
        return "factprobe-run-model"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        raise NotImplementedError("the run's model is asynchronous: call `await chat_model.ainvoke(...)` "
                                  "in an `async def` node")

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: Any = None, **kwargs: Any) -> ChatResult:
        text = await self.graph_context.ask([as_message(message) for message in messages], purpose=self.purpose,
                                            sample_index=int(kwargs.get("sample_index", 0)),
                                            temperature=kwargs.get("temperature"), max_tokens=kwargs.get("max_tokens"))
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))],
                          llm_output={RECORDED: True, "model_name": self.graph_context.model.name})
