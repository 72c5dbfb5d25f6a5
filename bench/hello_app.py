"""The framework's own speed: a Flask hello world, the baseline of ``bench/http_compare.py``.

It answers every path a small JSON — a GET as it is, a POST after reading its JSON body — so
the benchmark sends it exactly the requests it sends the service (same paths, headers,
bodies). It runs under the same gunicorn settings as the service:

    .venv/bin/gunicorn -c python:api.gunicorn_conf --pythonpath bench 'hello_app:create_app()'
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request
from werkzeug.wrappers import Response


def create_app() -> Flask:
    """The hello-world app (a factory, as the service's is)."""
    app = Flask("hello")

    @app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
    @app.route("/<path:path>", methods=["GET", "POST"])
    def hello(path: str) -> Response:
        answer: dict[str, Any] = {"hello": "world", "path": path}
        if request.method == "POST":
            body = request.get_json(silent=True)
            answer["keys"] = len(body) if isinstance(body, dict) else 0
        return jsonify(answer)

    return app
