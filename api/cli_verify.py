"""``gameledger verify`` and ``gameledger verify-log`` (docs/audit.md, "Verifying a game",
"Verifying a record's checkpoint", "Checking that the log only grew"; issue 14, part 4):

* ``verify FILE [--key B64URL]... [--keys FILE] [--tree-head FILE] [--json]`` — every check of
  a record, then its checkpoint by the key policy (the pinned keys are the union of ``--key``
  and ``--keys``) and against a tree head the user kept; a tournament record (its ``format``
  says so) is verified as one (docs/tournaments.md, "Verifying a tournament"). Exit 0 valid,
  1 invalid, 2 an input that cannot be read (a record, key or tree head file that is missing
  or not of its format);
* ``verify-log OLD NEW [--key]... [--keys FILE] [--proof FILE | --server URL] [--json]`` —
  OLD and NEW are signed tree head files; the consistency proof comes from a saved answer,
  from ``GET URL/api/v1/log/proofs/consistency``, or else from the configured store. Exit 0
  the log only grew, 1 it was rewritten (or a signature is refused), 2 unreadable input.

``FILE`` may be ``-`` for standard input (one of them)."""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from application import audit_documents as documents
from application.audit_documents import ConsistencyAnswer, DocumentError, TreeHead
from application.audit_keys import KeyPolicy
from application.audit_log import ProofSource, head_missing, verify_log
from application.audit_tournament import TournamentReport, verify_tournament_record
from application.audit_tournament_format import is_tournament_record
from application.errors import NotFound
from application.signing import PublicKey
from application.transparency import LogRequestRefused, consistency
from application.verification import VerificationReport, verify_record
from domain.jsonvalue import JsonRefused, strict_loads
from infrastructure.config import Settings
from infrastructure.container import build_services

DEPTH = 64
"""How deeply an input file may nest (records nest about ten levels)."""

T = TypeVar("T")

HEAD_NOT_FOUND = "tree-head-not-found"
"""The service's problem code for a size it has no signed tree head of (docs/api.md)."""

SERVER_TIMEOUT = 30.0
"""Seconds ``--server`` waits for the service's answer."""


class Failed(Exception):
    """An input that cannot be used: the message for stderr and the exit status."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``verify`` and ``verify-log`` commands."""
    verify = commands.add_parser("verify", help="check a record: chain, seed, rules, checkpoint")
    verify.add_argument("file", metavar="FILE")
    _key_arguments(verify)
    verify.add_argument(
        "--tree-head", metavar="FILE", help="a signed tree head you kept: the record must be in it"
    )
    verify.add_argument("--json", action="store_true", help="print the report as JSON")
    verify.set_defaults(handler=_reported(_verify))

    log = commands.add_parser("verify-log", help="check that the log only grew from OLD to NEW")
    log.add_argument("old", metavar="OLD", help="a signed tree head file (the older)")
    log.add_argument("new", metavar="NEW", help="a signed tree head file (the newer)")
    _key_arguments(log)
    source = log.add_mutually_exclusive_group()
    source.add_argument("--proof", metavar="FILE", help="a saved consistency-proof answer")
    source.add_argument("--server", metavar="URL", help="ask this service for the proof")
    log.add_argument("--json", action="store_true", help="print the report as JSON")
    log.set_defaults(handler=_reported(_verify_log))


def _key_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--key",
        action="append",
        default=[],
        type=_key,
        metavar="B64URL",
        help="a public key to pin (base64url; repeatable)",
    )
    parser.add_argument(
        "--keys", metavar="FILE", help="pin the keys of a saved GET /api/v1/keys answer"
    )


def keys_joined(argv: Sequence[str]) -> list[str]:
    """``--key VALUE`` written ``--key=VALUE``: a base64url key may begin with ``-``, which
    argparse would otherwise take for an option."""
    joined: list[str] = []
    items = iter(argv)
    for item in items:
        following = next(items, None) if item == "--key" else None
        joined.append(item if following is None else f"--key={following}")
    return joined


def _key(text: str) -> PublicKey:
    try:
        return documents.pinned_key(text)
    except DocumentError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _reported(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """An unusable input reported on stderr with its exit status instead of a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except Failed as failed:
            print(f"gameledger: {failed}", file=sys.stderr)
            return failed.status

    return run


def read_json(path: str, what: str) -> Any:
    """The JSON value of a file (``-``: standard input); exit 2 when it cannot be read."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        return strict_loads(text, max_depth=DEPTH)
    except (OSError, UnicodeDecodeError, JsonRefused) as error:
        raise Failed(f"cannot read {what} from {path}: {error}") from None


def _parsed(
    parse: Callable[[Any, str], T], value: Any, path: str, what: str, where: str | None = None
) -> T:
    """``value`` read by ``parse`` (its fields named from ``where``, else ``what``)."""
    try:
        return parse(value, what if where is None else where)
    except DocumentError as error:
        raise Failed(f"cannot read {what} from {path}: {error}") from None


def _document(parse: Callable[[Any, str], T], path: str, what: str) -> T:
    return _parsed(parse, read_json(path, what), path, what)


def _pinned(args: argparse.Namespace) -> KeyPolicy:
    keys: list[PublicKey] = list(args.key)
    if args.keys is not None:
        value = read_json(args.keys, "the keys")
        keys += _parsed(documents.pinned_keys, value, args.keys, "the keys", args.keys)
    return KeyPolicy.of(keys)


def _verify(args: argparse.Namespace) -> int:
    keys = _pinned(args)
    given = None
    if args.tree_head is not None:
        given = read_json(args.tree_head, "a tree head")
        _parsed(documents.tree_head, given, args.tree_head, "the tree head given")
    record = read_json(args.file, "a record")
    report: VerificationReport | TournamentReport
    if is_tournament_record(record):
        report = verify_tournament_record(record, pinned_keys=keys.pinned, tree_head=given)
    else:
        report = verify_record(record, pinned_keys=keys.pinned, tree_head=given)
    print(json.dumps(report.to_json()) if args.json else report.summary)
    return 0 if report.ok else 1


def _verify_log(args: argparse.Namespace) -> int:
    keys = _pinned(args)
    old = _document(documents.tree_head, args.old, "the tree head OLD")
    new = _document(documents.tree_head, args.new, "the tree head NEW")
    source = ProofSource(file=args.proof, server=args.server)
    if old.size > new.size:  # refused whatever the proof: none is fetched
        answer = ConsistencyAnswer(old.size, new.size, (), None, None)
    elif args.proof is not None:
        answer = _document(documents.consistency_answer, args.proof, "a consistency proof")
    else:
        try:
            answer = (
                _from_server(args.server, old, new)
                if args.server is not None
                else _from_store(old.size, new.size)
            )
        except _NoHead as missing:
            report = head_missing(old, new, keys, missing.size, args.server)
            print(json.dumps(report.to_json()) if args.json else report.summary)
            return 1
    try:
        report = verify_log(old, new, keys, answer, source)
    except DocumentError as error:
        raise Failed(f"cannot use the consistency proof: {error}") from None
    print(json.dumps(report.to_json()) if args.json else report.summary)
    return 0 if report.ok else 1


class _NoHead(Exception):
    """The service named with ``--server`` has no signed tree head of ``size`` (OLD's or
    NEW's). (A configured store without it is only an unusable input, exit 2: it need not be
    the store of the service whose heads were kept.)"""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def _from_server(url: str, old: TreeHead, new: TreeHead) -> ConsistencyAnswer:
    """``GET URL/api/v1/log/proofs/consistency?first=M&second=N`` (docs/api.md), once
    ``URL/api/v1/keys`` shows that URL publishes the keys that signed OLD and NEW (else it is
    not the service that signed them: :class:`Failed`, exit 2); a 404 ``tree-head-not-found``
    for the size of OLD or NEW is then :class:`_NoHead` (the service keeps every head it
    signed: one it lacks is a finding, not an unusable input)."""
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise Failed(f"--server must be an http:// or https:// URL, not {url!r}")
    _publishes_signers(url, old, new)
    query = urllib.parse.urlencode({"first": old.size, "second": new.size})
    address = f"{url.rstrip('/')}/api/v1/log/proofs/consistency?{query}"
    try:
        body = _get(address)
    except urllib.error.HTTPError as error:
        problem = _problem(error)
        if error.code == 404 and problem.startswith(f"{HEAD_NOT_FOUND}:"):
            for size in (old.size, new.size):
                if not _has_head(url, size):
                    raise _NoHead(size) from None
        raise Failed(f"{address} answered {error.code}: {problem}") from None
    except (urllib.error.URLError, OSError, UnicodeDecodeError) as error:
        raise Failed(f"cannot get a consistency proof from {address}: {error}") from None
    try:
        return documents.consistency_answer(strict_loads(body, max_depth=DEPTH), "the answer")
    except (JsonRefused, DocumentError) as error:
        raise Failed(f"{address} did not answer a consistency proof: {error}") from None


def _publishes_signers(url: str, old: TreeHead, new: TreeHead) -> None:
    """That the service at ``url`` publishes (``GET URL/api/v1/keys``, current or retired) the
    keys that signed OLD and NEW: a service that does not is not the one that signed them, and
    nothing it answers says anything about their log (docs/audit.md, "Checking that the log
    only grew"). :class:`Failed` (exit 2) otherwise."""
    address = f"{url.rstrip('/')}/api/v1/keys"
    try:
        body = _get(address)
        published = documents.pinned_keys(strict_loads(body, max_depth=DEPTH), "the answer")
    except urllib.error.HTTPError as error:
        raise Failed(
            f"{address} answered {error.code}: {_problem(error)} (is {url} the service that "
            "signed OLD and NEW?)"
        ) from None
    except (urllib.error.URLError, OSError, UnicodeDecodeError) as error:
        raise Failed(f"cannot get the keys {url} publishes from {address}: {error}") from None
    except (JsonRefused, DocumentError) as error:
        raise Failed(f"{address} did not answer a list of public keys: {error}") from None
    ids = {key.key_id for key in published}
    for name, head in (("OLD", old), ("NEW", new)):
        if head.key_id not in ids:
            raise Failed(
                f"{url} does not publish key {head.key_id} that signed {name}: not the service "
                "that signed it"
            )


def _get(address: str) -> str:
    """The body of a ``GET`` answered 2xx (``HTTPError`` otherwise)."""
    request = urllib.request.Request(address, headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=SERVER_TIMEOUT) as answer:
        body: str = answer.read().decode("utf-8")
    return body


def _has_head(url: str, size: int) -> bool:
    """Whether the service answers its signed tree head of ``size`` (not a 404
    ``tree-head-not-found``; anything else is :class:`Failed`)."""
    address = f"{url.rstrip('/')}/api/v1/log/tree-heads/{size}"
    try:
        _get(address)
    except urllib.error.HTTPError as error:
        problem = _problem(error)
        if error.code == 404 and problem.startswith(f"{HEAD_NOT_FOUND}:"):
            return False
        raise Failed(f"{address} answered {error.code}: {problem}") from None
    except (urllib.error.URLError, OSError, UnicodeDecodeError) as error:
        raise Failed(f"cannot get a tree head from {address}: {error}") from None
    return True


def _problem(error: urllib.error.HTTPError) -> str:
    """A problem answer's code and detail (RFC 9457), or its reason."""
    try:
        problem = json.loads(error.read().decode("utf-8"))
        return f"{problem['code']}: {problem['detail']}"
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, OSError):
        return str(error.reason)


def store_consistency(first: int, second: int) -> Any:
    """The configured store's ``GET /log/proofs/consistency`` answer for two sizes
    (:func:`application.transparency.consistency`); a store without those heads, or sizes out
    of order, is :class:`Failed` (exit 2)."""
    services = build_services(Settings.from_env(), create=False)
    try:
        return consistency(services.tlog.store, services.keys, first, second)
    except (NotFound, LogRequestRefused) as error:
        raise Failed(f"the configured store cannot prove it: {error.message}") from None
    finally:
        services.close()


def _from_store(first: int, second: int) -> ConsistencyAnswer:
    """The consistency proof computed from the configured store's log."""
    answer = store_consistency(first, second)
    return _parsed(documents.consistency_answer, answer, "the store", "the store's proof")
