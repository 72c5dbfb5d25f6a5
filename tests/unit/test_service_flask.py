"""The app asks whether a hook or a view is a coroutine function once per function, not on
every request (api/app.py, ``ServiceFlask``; docs/performance.md, "HTTP")."""

from __future__ import annotations

import inspect
from typing import Any

import flask.app
import pytest

from api.app import ServiceFlask, create_app
from infrastructure.config import Settings
from infrastructure.container import build_services


def test_each_function_is_asked_about_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []

    def counted(func: Any) -> bool:
        asked.append(func)
        return inspect.iscoroutinefunction(func)

    monkeypatch.setattr(flask.app, "iscoroutinefunction", counted)
    services = build_services(Settings(store="memory", embedded_projections=False))
    try:
        client = create_app(services, follow=False).test_client()
        assert client.get("/api/v1/games").status_code == 200
        first = len(asked)
        assert first > 5  # the hooks and the view
        for _ in range(3):
            assert client.get("/api/v1/games").status_code == 200
        assert len(asked) == first
    finally:
        services.close()


def test_a_coroutine_function_is_still_told_apart() -> None:
    app = ServiceFlask("test")

    def plain() -> str:
        return "plain"

    async def coroutine() -> str:
        return "coroutine"

    assert app.ensure_sync(plain) is plain
    assert app.ensure_sync(plain) is plain
    with pytest.raises(RuntimeError, match="async"):  # Flask's own: asgiref is not installed
        app.ensure_sync(coroutine)
