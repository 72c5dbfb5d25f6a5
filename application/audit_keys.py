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
  document does not carry cannot be checked at all, and is reported as not checked."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
        unique = {key.public_raw: key for key in keys or ()}
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
    ) -> bool:
        """Check ``signature`` of ``data``, which ``what`` says is by the key ``signer``
        (a key id). ``carried`` is the public key the document itself gives for that id, if
        any. Returns ``True`` when the signature was verified (by a pinned key, or unpinned by
        the carried key) and ``False`` when, unpinned, no key for ``signer`` is at hand;
        raises :class:`SignatureRefused` otherwise."""
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
                f"(pinned: {self.pinned_ids()})"
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
        return True
