"""The development server of ``gameledger serve`` (werkzeug's), with its own error pages as
problem+json (docs/api.md, "Errors"): a request it cannot parse (400), a request line or
headers too long (414, 431) are answered before the app sees the request, by Python's
``http.server``, which writes HTML unless told otherwise. Production runs gunicorn with
api/gunicorn_conf.py, which does the same for gunicorn's pages."""

from __future__ import annotations

from werkzeug.serving import WSGIRequestHandler

from api.errors import PROBLEM, server_problem


class ProblemRequestHandler(WSGIRequestHandler):
    """werkzeug's request handler whose own errors are problem+json."""

    default_request_version = "HTTP/1.0"
    """What a request line it cannot read is answered as: with a status line and headers
    (Python's default, HTTP/0.9, writes the body alone, so a client saw no status)."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The error as problem+json: the code from the status, the server's sentence (cut
        to 200 characters) as the detail."""
        short, long = self.responses.get(code, ("Error", "Error"))
        self.log_error("code %d, message %s", code, message or short)
        body = server_problem(code, explain or message or long)
        self.send_response(code, message or short)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", PROBLEM)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
