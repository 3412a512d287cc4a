"""Parses.holding: which of a project's texts hold a name, remembered across plans. After
any sequence of changed texts and of questions, some of them given up part way (a caller
that stops at the first refusal), it answers as a search of every current text does."""

from itertools import islice
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from lintgv.fixing.python_calls import Parses

PATHS = [Path(f"pkg/{n}.py") for n in ("b", "a", "c", "d")]
NAMES = ["make", "make_global", "lower"]
TEXTS = st.sampled_from(["", "make()", "make_global()", "lower(make)", "x = 1", None])
# A step: a file given a new text (a new object, as a fix makes), or a question about a
# name, read to the end or stopped after some answers.
STEPS = st.one_of(
    st.tuples(st.just("change"), st.sampled_from(PATHS), TEXTS),
    st.tuples(st.just("ask"), st.sampled_from(NAMES), st.none() | st.integers(0, 3)),
)


@given(st.lists(STEPS, max_size=30))
def test_holding_answers_as_a_search_of_every_current_text(steps: list[tuple]) -> None:
    texts: dict[Path, str | None] = dict.fromkeys(PATHS, "make_global()")
    modules = {path: path.stem for path in PATHS}
    parses = Parses()
    for kind, subject, value in steps:
        if kind == "change":
            # Joined at run time: a new object even when the text is one seen before.
            texts[subject] = None if value is None else "".join([value, ""])
            continue
        expected = [
            (path, texts[path])
            for path in sorted(PATHS, key=lambda p: p.as_posix())
            if texts[path] is None or subject in texts[path]
        ]
        answers = parses.holding(subject, modules, texts.get)
        if value is None:
            assert list(answers) == expected
        else:
            assert list(islice(answers, value)) == expected[:value]
