"""The streams' settings (docs/operations.md, "Streams"): read from ``GAMELEDGER_STREAM*``,
refused when out of range; gunicorn's configuration gives each worker a thread per stream
place and logs no query string (a stream's ``?token=``)."""

from __future__ import annotations

import importlib

import pytest

import api.gunicorn_conf
from infrastructure.config import ConfigurationError
from infrastructure.stream_settings import StreamSettings


def test_defaults_and_overrides() -> None:
    assert StreamSettings.from_env({}) == StreamSettings(15.0, 0.5, 3000, 200)
    found = StreamSettings.from_env(
        {
            "GAMELEDGER_STREAM_HEARTBEAT": "2.5",
            "GAMELEDGER_STREAM_POLL": "0.1",
            "GAMELEDGER_STREAM_RETRY_MS": "500",
            "GAMELEDGER_STREAMS_MAX": "7",
        }
    )
    assert found == StreamSettings(2.5, 0.1, 500, 7)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("STREAM_HEARTBEAT", "0"),
        ("STREAM_HEARTBEAT", "x"),
        ("STREAM_POLL", "-1"),
        ("STREAM_POLL", "61"),
        ("STREAM_RETRY_MS", "-5"),
        ("STREAMS_MAX", "-1"),
        ("STREAMS_MAX", "1.5"),
    ],
)
def test_bad_values_are_refused(key: str, value: str) -> None:
    with pytest.raises(ConfigurationError, match="GAMELEDGER_STREAM"):
        StreamSettings.from_env({f"GAMELEDGER_{key}": value})


def test_gunicorn_has_a_thread_per_stream_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMELEDGER_STREAMS_MAX", "50")
    conf = importlib.reload(api.gunicorn_conf)
    assert conf.worker_class == "gthread"
    assert conf.threads == 54
    assert conf.worker_connections == 1054
    assert "%(r)s" not in conf.access_log_format and "%(q)s" not in conf.access_log_format
    assert "%(U)s" in conf.access_log_format
    monkeypatch.delenv("GAMELEDGER_STREAMS_MAX")
    importlib.reload(api.gunicorn_conf)
