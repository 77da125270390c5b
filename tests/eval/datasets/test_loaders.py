"""Dataset loaders: the public slices in ../shared/datasets, and bad input written to tmp_path.

Record counts are the README's table for ../shared/datasets. Bad input must become a
DatasetError naming the file, the line or record, and the field, before any run starts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import HOP_REFERENCE, Question
from factprobe.eval.datasets.describe import describe_dataset
from factprobe.eval.datasets.musique import natural_question
from factprobe.eval.datasets.registry import LOADERS, Dataset, describe_loaders, load_dataset
from factprobe.eval.datasets.relations import relation_question
from tests.fakes import ScriptedModel

SHARED_FILES = {
    "simpleqa": "simpleqa/simple_qa_test_set.csv",
    "musique": "musique/musique_ans_dev_sample.jsonl",
    "hotpotqa": "hotpotqa/hotpot_dev_distractor_sample.jsonl",
    "2wiki": "2wikimultihopqa/2wiki_dev_sample.jsonl",
    "selfaware": "selfaware/SelfAware_sample.json",
    "kuq": "kuq/knowns_unknowns_sample.jsonl",
    "fanoutqa": "fanoutqa/fanout_dev_sample.json",
    "compceleb": "compositional_celebrities/compositional_celebrities_sample.json",
    "videosimpleqa": "videosimpleqa/VideoSimpleQA_sample.json",
}
# loaders with no public slice in ../shared/datasets (tested on files their tests write)
UNSHARED = {"jsonl", "mcq", "mmworld", "worldsense", "worldvqa", "mmsap"}
# records, answerable, unanswerable
COUNTS = {
    "simpleqa": (400, 400, 0),
    "musique": (60, 60, 0),
    "hotpotqa": (80, 80, 0),
    "2wiki": (60, 60, 0),
    "selfaware": (337, 234, 103),
    "kuq": (345, 173, 172),
    "fanoutqa": (40, 40, 0),
    "compceleb": (100, 100, 0),
    "videosimpleqa": (301, 301, 0),
}


def load_shared(shared_datasets: Path, loader: str) -> Dataset:
    path = shared_datasets / SHARED_FILES[loader]
    if not path.is_file():
        pytest.skip(f"{path} is absent from ../shared/datasets")
    return load_dataset(f"{loader}:{path}")


def assert_chains_end_in_answer(questions: list[Question]) -> None:
    for question in questions:
        if question.hops:
            assert question.hops[-1].answer == question.answer, question.id
            earlier: list[str] = []
            for hop in question.hops:
                hop.render(earlier)             # every #k names an earlier hop
                earlier.append(hop.answer)


def assert_gold_passages_in_own_corpus(questions: list[Question]) -> None:
    for question in questions:
        ids = [passage.id for passage in question.corpus]
        assert len(ids) == len(set(ids)), question.id
        cited = set(question.passage_ids) | {i for hop in question.hops for i in hop.passage_ids}
        assert cited <= set(ids), (question.id, cited - set(ids))


# ---------------------------------------------------------------- every loader on its public slice

def test_every_public_loader_is_registered_and_listed() -> None:
    assert set(SHARED_FILES) | UNSHARED == set(LOADERS.items())
    assert set(LOADERS.items()) | {"sample"} == set(describe_loaders())


@pytest.mark.parametrize("loader", sorted(SHARED_FILES))
def test_loader_counts_source_and_describe(shared_datasets: Path, loader: str) -> None:
    dataset = load_shared(shared_datasets, loader)
    records, answerable, unanswerable = COUNTS[loader]
    questions = dataset.questions
    assert len(questions) == records
    assert sum(q.answerable for q in questions) == answerable
    assert sum(not q.answerable for q in questions) == unanswerable
    assert all(q.source == loader for q in questions)
    assert all(q.question.strip() for q in questions)
    assert all((q.answer is None) == (not q.answerable) for q in questions)
    description = describe_dataset(dataset)
    assert description["records"] == records
    assert sum(description["hops"].values()) == records
    assert description["gold_passages_not_in_corpus"] == 0
    json.dumps(description)


def test_simpleqa_categories_come_from_metadata_topic(shared_datasets: Path) -> None:
    questions = load_shared(shared_datasets, "simpleqa").questions
    assert questions[0].category == "Science and technology"
    assert len({q.category for q in questions}) >= 5
    assert "general" not in {q.category for q in questions}


def test_musique_hops_read_naturally_and_cite_their_paragraphs(shared_datasets: Path) -> None:
    questions = load_shared(shared_datasets, "musique").questions
    assert all(len(q.hops) >= 2 for q in questions)
    assert_chains_end_in_answer(questions)
    assert_gold_passages_in_own_corpus(questions)
    for question in questions:
        assert len(question.corpus) == 20
        assert all(hop.passage_ids for hop in question.hops), question.id
        earlier: list[str] = []
        for hop in question.hops:
            rendered = hop.render(earlier)
            assert ">>" not in rendered and not HOP_REFERENCE.search(rendered), (question.id, rendered)
            earlier.append(hop.answer)
    first = next(q for q in questions if q.id == "2hop__574419_270105")
    assert first.hops[0].question == ("In which administrative territorial entity is Van Hook "
                                      "Township located?")
    assert first.hops[1].question == "What is the capital of #1?"
    assert first.hops[1].render(["Mountrail County"]) == "What is the capital of Mountrail County?"


def test_hotpotqa_gold_passages_are_in_the_question_corpus(shared_datasets: Path) -> None:
    dataset = load_shared(shared_datasets, "hotpotqa")
    questions = dataset.questions
    assert_gold_passages_in_own_corpus(questions)
    assert sum(bool(q.passage_ids) for q in questions) >= 60
    assert {q.category for q in questions} <= {"bridge/hard", "comparison/hard", "bridge/medium",
                                               "comparison/medium", "bridge/easy", "comparison/easy"}
    assert all(not q.hops for q in questions)
    # this slice's contexts were re-retrieved upstream, and the loader says so
    assert any("lack a supporting paragraph" in note for note in dataset.notes)


def test_2wiki_chained_evidence_becomes_hops(shared_datasets: Path) -> None:
    questions = load_shared(shared_datasets, "2wiki").questions
    assert_chains_end_in_answer(questions)
    assert_gold_passages_in_own_corpus(questions)
    chained = [q for q in questions if q.category in {"compositional", "inference"}]
    assert chained and all(len(q.hops) == 2 for q in chained)
    assert all(q.hops[1].refers_to == [1] for q in chained)
    assert all(not q.hops for q in questions if q.category in {"comparison", "bridge_comparison"})


def test_selfaware_and_kuq_flag_unanswerable(shared_datasets: Path) -> None:
    for loader in ("selfaware", "kuq"):
        questions = load_shared(shared_datasets, loader).questions
        assert all(q.answer is None and not q.aliases for q in questions if not q.answerable)
    kuq = load_shared(shared_datasets, "kuq").questions
    reasons = {q.unanswerable_reason for q in kuq if not q.answerable}
    assert {"future unknown", "false assumption", "controversial"} <= reasons


def test_fanoutqa_hops_follow_dependencies_and_end_in_the_answer(shared_datasets: Path) -> None:
    dataset = load_shared(shared_datasets, "fanoutqa")
    questions = dataset.questions
    assert all(len(q.hops) >= 3 for q in questions)
    assert_chains_end_in_answer(questions)
    batting = next(q for q in questions if q.id == "7dcbbbdc7f1120cd")
    assert batting.hops[0].question == "Who were the first 5 picks in the 1998 MLB Draft?"
    assert batting.hops[1].answer == "Right"
    assert batting.answer.startswith("Pat Burrell: Right; Mark Mulder: Left")
    continent = next(q for q in questions if q.id == "563b95ed6141123c")
    # the nested decomposition is flattened after the hop it depends on
    assert [h.answer for h in continent.hops[:2]] == ["Asia", "Macau; Maldives; Singapore; Bahrain; Hong Kong"]


def test_compceleb_second_hop_refers_to_the_first(shared_datasets: Path) -> None:
    questions = load_shared(shared_datasets, "compceleb").questions
    assert all(len(q.hops) == 2 and q.hops[1].refers_to == [1] for q in questions)
    assert_chains_end_in_answer(questions)
    kawhi = next(q for q in questions if q.id == "compceleb-1026-birthdate_uspresident")
    assert kawhi.hops[1].render([kawhi.hops[0].answer]) == (
        "Who was the President of the United States on June 29, 1991?")


def test_datasets_describe_json_on_the_cli(shared_datasets: Path, capsys) -> None:
    path = shared_datasets / SHARED_FILES["musique"]
    if not path.is_file():
        pytest.skip(f"{path} is absent from ../shared/datasets")
    assert cli.main(["datasets", "describe", f"musique:{path}", "--json"]) == 0
    description = json.loads(capsys.readouterr().out)
    assert description["records"] == 60 and description["hops"] == {"2": 60}
    assert description["per_question_corpus_passages"] == 1200


# ---------------------------------------------------------------- relations as questions

def test_relations_become_natural_questions() -> None:
    assert relation_question("#1", "capital") == "What is the capital of #1?"
    assert relation_question("Free Guy", "director") == "Who directed Free Guy?"
    assert relation_question("Mars", "orbital period") == "What is the orbital period of Mars?"
    assert natural_question("Kichi Sipi Bridge >> crosses") == "What does Kichi Sipi Bridge cross?"
    assert natural_question("who played thelma in the movie ") == "Who played thelma in the movie?"
    assert natural_question("who does #1 's voice in spongebob") == "Who does #1's voice in spongebob?"
    assert natural_question(">> capital") is None


# ---------------------------------------------------------------- small files of our own

def musique_record(**changes) -> dict:
    record = {
        "id": "2hop__1_2", "question": "Which city is the capital of the country where Lake Toba lies?",
        "answer": "Jakarta", "answer_aliases": ["Djakarta"], "answerable": True,
        "paragraphs": [
            {"idx": 0, "title": "Lake Toba", "paragraph_text": "Lake Toba lies in Indonesia.",
             "is_supporting": True},
            {"idx": 1, "title": "Indonesia", "paragraph_text": "The capital of Indonesia is Jakarta.",
             "is_supporting": True},
            {"idx": 2, "title": "Lake Taupo", "paragraph_text": "Lake Taupo lies in New Zealand.",
             "is_supporting": False},
        ],
        "question_decomposition": [
            {"id": 1, "question": "Lake Toba >> country", "answer": "Indonesia", "paragraph_support_idx": 0},
            {"id": 2, "question": "#1 >> capital", "answer": "Jakarta", "paragraph_support_idx": 1},
        ],
    }
    record.update(changes)
    return record


def write_jsonl(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def dataset_error(spec: str) -> str:
    with pytest.raises(DatasetError) as caught:
        load_dataset(spec)
    return str(caught.value)


def test_musique_record_of_our_own(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "m.jsonl", [musique_record()])
    (question,) = load_dataset(f"musique:{path}").questions
    assert [h.question for h in question.hops] == ["Which country is Lake Toba in?", "What is the capital of #1?"]
    assert question.hops[-1].aliases == ["Djakarta"] and question.aliases == ["Djakarta"]
    assert question.passage_ids == ["2hop__1_2/p0", "2hop__1_2/p1"]
    assert question.hops[1].passage_ids == ["2hop__1_2/p1"]
    assert [p.title for p in question.corpus] == ["Lake Toba", "Indonesia", "Lake Taupo"]


def test_musique_unanswerable_keeps_corpus_without_answer(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "m.jsonl", [musique_record(answerable=False)])
    (question,) = load_dataset(f"musique:{path}").questions
    assert question.answer is None and not question.answerable and not question.hops
    assert len(question.corpus) == 3


def test_malformed_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(musique_record()) + "\n{not json\n", encoding="utf-8")
    message = dataset_error(f"musique:{path}")
    assert str(path) in message and "line 2" in message and "not valid JSON" in message


@pytest.mark.parametrize(("record", "field"), [
    ({k: v for k, v in musique_record().items() if k != "paragraphs"}, "`paragraphs`"),
    (musique_record(answerable="yes"), "`answerable`"),
    (musique_record(paragraphs=[{"idx": "0", "paragraph_text": "x"}]), "`paragraphs.0.idx`"),
    (musique_record(question_decomposition=[{"question": ">> country", "answer": "Indonesia"}]),
     "`question_decomposition.0.question`"),
    (musique_record(question_decomposition=[{"question": "What is #2?", "answer": "Jakarta"}]),
     "`question_decomposition.0.question`"),
    (musique_record(question_decomposition=[
        {"question": "Lake Toba >> country", "answer": "Indonesia", "paragraph_support_idx": 7},
        {"question": "#1 >> capital", "answer": "Jakarta"}]), "`question_decomposition.0.paragraph_support_idx`"),
    (musique_record(answer="Bandung"), "`question_decomposition`"),
])
def test_bad_musique_record_names_line_and_field(tmp_path: Path, record: dict, field: str) -> None:
    path = write_jsonl(tmp_path / "m.jsonl", [musique_record(id="ok"), record])
    message = dataset_error(f"musique:{path}")
    assert str(path) in message and "line 2" in message and field in message, message


HOTPOT = {"_id": "h1", "question": "Which lake is larger?", "answer": "Lake Toba", "type": "comparison",
          "level": "easy", "supporting_facts": [["Lake Toba", 0], ["Lake Taupo", 0]],
          "context": [["Lake Toba", ["Lake Toba is large."]], ["Lake Taupo", ["Lake Taupo is smaller."]]]}


def test_wrong_loader_for_the_file_is_named(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "hotpot.jsonl", [HOTPOT])
    message = dataset_error(f"musique:{path}")
    assert "line 1" in message and "field `" in message and "MuSiQue" in message
    assert "2WikiMultihopQA" in dataset_error(f"2wiki:{path}")
    assert "KUQ" in dataset_error(f"kuq:{path}")
    assert "native schema" in dataset_error(f"jsonl:{path}")
    (question,) = load_dataset(f"hotpotqa:{path}").questions
    assert question.passage_ids == ["h1/Lake Toba", "h1/Lake Taupo"] and question.category == "comparison/easy"


@pytest.mark.parametrize("loader", ["jsonl", "musique", "hotpotqa", "2wiki", "kuq", "simpleqa",
                                    "selfaware", "fanoutqa", "compceleb"])
def test_empty_file(tmp_path: Path, loader: str) -> None:
    path = tmp_path / "empty.data"
    path.write_text("\n", encoding="utf-8")
    message = dataset_error(f"{loader}:{path}")
    assert str(path) in message and ("empty" in message or "no records" in message)


def test_json_documents_name_record_and_field(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"example": [
        {"question_id": 1, "question": "Which planet is red?", "answer": ["Mars"], "answerable": True},
        {"question_id": 2, "question": "Is it?", "answer": None, "answerable": "no"}]}), encoding="utf-8")
    message = dataset_error(f"selfaware:{path}")
    assert "record 2" in message and "`answerable`" in message
    path.write_text('{"example": [\n{"question_id": 1,}\n]}', encoding="utf-8")
    assert "line 2" in dataset_error(f"selfaware:{path}")
    fanout = [{"id": "f", "question": "Q?", "answer": "a", "decomposition": []}]
    path.write_text(json.dumps(fanout), encoding="utf-8")
    assert "record 1" in (message := dataset_error(f"selfaware:{path}")) and "`question_id`" in message
    path.write_text(json.dumps({"rows": []}), encoding="utf-8")
    assert "`data`" in dataset_error(f"compceleb:{path}")


def test_fanoutqa_dependency_problems(tmp_path: Path) -> None:
    def step(id_: str, deps: list[str], answer="x") -> dict:
        return {"id": id_, "question": f"Sub {id_}?", "answer": answer, "decomposition": [], "depends_on": deps}

    path = tmp_path / "f.json"
    path.write_text(json.dumps([{"id": "f1", "question": "Q?", "answer": "y",
                                 "decomposition": [step("b", ["a"], "y"), step("a", [])]}]), encoding="utf-8")
    (question,) = load_dataset(f"fanoutqa:{path}").questions
    assert [h.question for h in question.hops] == ["Sub a?", "Sub b?"]      # a chain: no composition hop
    path.write_text(json.dumps([{"id": "f1", "question": "Q?", "answer": "y",
                                 "decomposition": [step("a", ["zz"])]}]), encoding="utf-8")
    message = dataset_error(f"fanoutqa:{path}")
    assert "record 1" in message and "`decomposition.0.depends_on`" in message
    path.write_text(json.dumps([{"id": "f1", "question": "Q?", "answer": "y",
                                 "decomposition": [step("a", ["b"]), step("b", ["a"])]}]), encoding="utf-8")
    assert "cycle" in dataset_error(f"fanoutqa:{path}")


def test_simpleqa_original_columns_and_bad_rows(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text('metadata,problem,answer\n"{\'topic\': \'Art\'}",Who painted it?,Someone\n',
                    encoding="utf-8")
    (question,) = load_dataset(f"simpleqa:{path}").questions
    assert (question.category, question.answer, question.id) == ("Art", "Someone", "simpleqa-1")
    path.write_text("metadata,question,true_answer\n{},Q?,A\n{},Q2?\n", encoding="utf-8")
    assert "line 3" in (message := dataset_error(f"simpleqa:{path}")) and "columns" in message
    path.write_text("metadata,query,true_answer\n{},Q?,A\n", encoding="utf-8")
    assert "line 1" in (message := dataset_error(f"simpleqa:{path}")) and "`question`" in message
    path.write_text("metadata,question,true_answer\n{oops,Q?,A\n", encoding="utf-8")
    assert "line 2" in (message := dataset_error(f"simpleqa:{path}")) and "`metadata`" in message


def test_native_jsonl_checks_hop_references(tmp_path: Path) -> None:
    bad = Question(id="q", question="Q?", answer="a", hops=[{"question": "What is #2?", "answer": "a"}])
    path = write_jsonl(tmp_path / "native.jsonl", [bad.model_dump()])
    assert "line 1" in (message := dataset_error(f"jsonl:{path}")) and "`hops.0.question`" in message
    good = Question(id="q", question="Q?", answer="a")
    path = write_jsonl(tmp_path / "native.jsonl", [good.model_dump()])
    assert load_dataset(f"jsonl:{path}").questions[0].source == "native"


def test_bad_dataset_starts_no_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(lambda m, p: "Answer: x"))
    path = write_jsonl(tmp_path / "hotpot.jsonl", [HOTPOT])
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"musique:{path}", "--strategies", "vanilla", "--out", str(out)]) == 2
    assert "line 1" in capsys.readouterr().err
    assert not out.exists()


def test_fanoutqa_list_and_per_entity_answers_carry_their_parts(tmp_path: Path) -> None:
    """A list or per-entity answer gives the grader its required parts; a single value gives none."""
    records = [{"id": "l", "question": "Which two?", "answer": ["Oska", "Belmar"], "decomposition": []},
               {"id": "d", "question": "Who founded each?", "answer": {"Tanners": "Edda", "Weavers": "Piet"},
                "decomposition": []},
               {"id": "s", "question": "How many?", "answer": 4, "decomposition": []}]
    path = tmp_path / "fanout.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    parts = {q.id: q.answer_parts for q in load_dataset(f"fanoutqa:{path}").questions}
    assert parts == {"l": ["Oska", "Belmar"], "d": ["Tanners: Edda", "Weavers: Piet"], "s": []}
