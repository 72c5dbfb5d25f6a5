"""The key policy of a verifier (issue 14, part 4; docs/audit.md, "Verifying a record's
checkpoint", "The key policy"): which public key a signature of the transparency log is
checked against.

* **Pinned** (keys given with ``--key`` or ``--keys FILE``, obtained from the service or its
  operator, not from the thing being checked): a signature must be by one of them — a key id
  that is not pinned is refused, whatever else the document carries, and the signature is
  checked with the pinned key's own bytes.
* **Unpinned** (no keys given): the only key there is comes from the document itself (a
  record's ``transparency.public_key``); a signature by it is checked and reported as
  *unpinned* — it shows the record is consistent with itself, not that the service signed it,
  since a forger signs with a key of their own just as well. A signature by a key the
  document does not carry cannot be checked at all, and is reported as not checked.
* **Retired** (a pinned key whose keys file gives ``retired_at``): what it signed after its
  retirement (a checkpoint's or tree head's ``at`` later than ``retired_at``) is refused — the
  service signs nothing new with a retired key, so whoever did holds a key that leaked
  (docs/audit.md, "Threat model", the stolen key)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from application.signing import PublicKey


class SignatureRefused(ValueError):
    """A signature the policy refuses; the message names what was signed and the key."""


@dataclass(frozen=True)
class KeyPolicy:
    """The pinned keys (none: unpinned)."""

    pinned: tuple[PublicKey, ...] = ()

    @classmethod
    def of(cls, keys: Iterable[PublicKey] | None) -> KeyPolicy:
        """The policy of these pinned keys (``None`` or none: unpinned)."""
        unique: dict[bytes, PublicKey] = {}
        for key in keys or ():
            known = unique.get(key.public_raw)
            if known is None or _retired_sooner(key, known):
                unique[key.public_raw] = key
        return cls(tuple(sorted(unique.values(), key=lambda key: key.key_id)))

    @property
    def is_pinned(self) -> bool:
        """Whether any key is pinned."""
        return bool(self.pinned)

    def pinned_ids(self) -> str:
        """The pinned keys' ids, for messages."""
        return ", ".join(key.key_id for key in self.pinned)

    def check(
        self,
        what: str,
        signer: str,
        data: bytes,
        signature: bytes,
        carried: PublicKey | None = None,
        *,
        at: str | None = None,
    ) -> bool:
        """Check ``signature`` of ``data``, which ``what`` says is by the key ``signer``
        (a key id) at the time ``at`` (its signed ``at``). ``carried`` is the public key the
        document itself gives for that id, if any. Returns ``True`` when the signature was
        verified (by a pinned key not retired before ``at``, or unpinned by the carried key)
        and ``False`` when, unpinned, no key for ``signer`` is at hand; raises
        :class:`SignatureRefused` otherwise."""
        if not self.is_pinned:
            if carried is None or carried.key_id != signer:
                return False
            if not carried.verify(data, signature):
                raise SignatureRefused(
                    f"{what}: the signature does not verify under the record's public key "
                    f"{signer} (what was signed, or the signature, was changed)"
                )
            return True
        key = next((key for key in self.pinned if key.key_id == signer), None)
        if key is None:
            raise SignatureRefused(
                f"{what} is signed by key {signer}, which is not a pinned key "
                f"(pinned: {self.pinned_ids()}); if the service rotated its key since the keys "
                "were saved, fetch GET /api/v1/keys again (or gameledger keys show --json) and "
                "pin the new list"
            )
        if carried is not None and carried.public_raw != key.public_raw:
            raise SignatureRefused(
                f"{what} names key {signer}, but the public key it carries is not the pinned "
                f"key {signer}"
            )
        if not key.verify(data, signature):
            raise SignatureRefused(
                f"{what}: the signature does not verify under the pinned key {signer} (what "
                "was signed, or the signature, was changed)"
            )
        if at is not None and key.retired_at is not None and at > key.retired_at:
            raise SignatureRefused(
                f"{what} is signed by key {signer} at {at}, after it was retired at "
                f"{key.retired_at}: the service signs nothing with a retired key, so whoever "
                "signed this holds a key that leaked"
            )
        return True


class Signed(Protocol):
    """Anything signed by a key id (a tree head)."""

    @property
    def key_id(self) -> str:
        """The signing key's id."""
        ...


def signers(first: Signed, second: Signed) -> str:
    """``pinned key K`` for two things signed by one key, ``pinned keys K and L`` else."""
    if first.key_id == second.key_id:
        return f"pinned key {first.key_id}"
    return f"pinned keys {first.key_id} and {second.key_id}"


def _retired_sooner(key: PublicKey, other: PublicKey) -> bool:
    """Whether ``key`` says the key was retired before ``other`` says (one key pinned twice:
    the earlier retirement holds)."""
    if key.retired_at is None:
        return False
    return other.retired_at is None or key.retired_at < other.retired_at
