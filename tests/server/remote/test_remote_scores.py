"""What a score is (issue 45, attack 5): an echo answer whose offsets leave the echoed text, whose
text is not the prompt sent, or whose tokens do not concatenate to it is an error naming the
field; it is retried like a 5xx (one more request) and never cached."""

from __future__ import annotations

import pytest

from ambit.server.remote.backend import RemoteBackend
from ambit.server.remote.errors import InvalidResponse
from ambit.server.remote.spec import RemoteOptions

from .hostile import Hostile

PROMPT = "Human: is it raining? Computer:"
SECRET = "sk-scores-0123456789"


@pytest.fixture
def hostile():
    s = Hostile(key=SECRET).start()
    yield s
    s.kill()


def _each_choice(change):
    def tamper(path, answer):
        for ch in answer.get("choices", []):
            change(ch)
        return answer
    return tamper


def _far_offset(ch):
    ch["logprobs"]["text_offset"][-1] = 10**15


def _offset_back(ch):
    ch["logprobs"]["text_offset"][-1] = 0


def _first_offset(ch):
    ch["logprobs"]["text_offset"] = [o + 1 for o in ch["logprobs"]["text_offset"]]


def _other_text(ch):
    ch["text"] = "Human: is it snowing? Computer:" + ch["text"][len(PROMPT):]


def _other_tokens(ch):
    toks = ch["logprobs"]["tokens"]
    toks[-1] = toks[-1][::-1] + "z"


@pytest.mark.parametrize("change, field", [
    (_far_offset, r"choices\[0\]\.logprobs\.text_offset\[\d+\] is 1000000000000000 \(int\), expected an offset from"),
    (_offset_back, r"choices\[0\]\.logprobs\.text_offset\[\d+\] is 0 \(int\), expected an offset from"),
    (_first_offset, r"choices\[0\]\.logprobs\.text_offset\[0\] is 1 \(int\), expected 0"),
    (_other_text, r"choices\[0\]\.text is .*snowing.*expected the text sent, echoed"),
    (_other_tokens, r"choices\[0\]\.logprobs\.tokens is .* expected tokens that concatenate to the text sent"),
])
def test_an_answer_that_is_not_a_score_is_an_error_retried_and_never_cached(hostile, tmp_path, change, field):
    be = RemoteBackend.load(f"openai:standin@{hostile.url}",
                            RemoteOptions(api_key=SECRET, cache_dir=tmp_path / "cache", retries=1, backoff_s=0.0,
                                          max_wait_s=0.0, timeout_s=10.0))
    good = be.score_batch([(PROMPT, [" yes", " no"])])[0]  # a good answer (cached)
    assert len(be.endpoint.cache) == 1
    hostile.tamper = _each_choice(change)
    sent = hostile.posts
    with pytest.raises(InvalidResponse, match=field):
        be.score_batch([(PROMPT, [" maybe", " never"])])
    assert hostile.posts == sent + 2  # retried once, like a 5xx
    assert len(be.endpoint.cache) == 1  # the bad answer was not cached
    hostile.tamper = None
    assert [s.sum_logprob for s in be.score_batch([(PROMPT, [" yes", " no"])])[0]] == [s.sum_logprob for s in good]
    be.close()
