"""Every language speaks every sentence: the same keys as English, the same placeholders."""

from __future__ import annotations

import re

import pytest

from messages import catalogue, languages, t

PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
OTHERS = [lang for lang in languages() if lang != "en"]


def test_the_bot_speaks_english_italian_and_french():
    assert languages() == ["en", "fr", "it"]


@pytest.mark.parametrize("lang", OTHERS)
def test_same_keys_as_english(lang):
    en, other = catalogue("en"), catalogue(lang)
    assert sorted(set(en) - set(other)) == []
    assert sorted(set(other) - set(en)) == []


@pytest.mark.parametrize("lang", OTHERS)
def test_same_placeholders_as_english(lang):
    en, other = catalogue("en"), catalogue(lang)
    wrong = {key: (PLACEHOLDER.findall(en[key]), PLACEHOLDER.findall(text))
             for key, text in other.items()
             if key in en and set(PLACEHOLDER.findall(en[key])) != set(PLACEHOLDER.findall(text))}
    assert wrong == {}


@pytest.mark.parametrize("lang", OTHERS)
def test_sentences_are_translated_not_copied(lang):
    en, other = catalogue("en"), catalogue(lang)
    same = [k for k, v in other.items() if v == en.get(k) and len(v) > 24]
    assert len(same) < len(other) // 20, same[:20]


def test_a_sentence_in_each_language():
    assert t("bot.ok", "en") != t("bot.ok", "it") != t("bot.ok", "fr")
