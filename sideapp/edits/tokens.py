"""Save tokens: what the preview a confirm answers showed, signed by the server.

A preview hands its form a token naming the user it was shown to, the claim, the action, the
suggestion, the page (its id and title) and the revision the change was built on, signed
with the project's secret key (django.core.signing, its own salt) and good for
`TOKEN_MAX_AGE` seconds. A confirm is saved only with a token that verifies and names this
user, claim, action and suggestion; the revision the "nobody edited since" check starts
from is the token's, never a number the browser sent. A random nonce makes two previews'
tokens differ, so the key of a save (`key`, stored in the audit log) and the marker its
edit summary carries cannot be guessed.

A confirm without a token (an older form, a script) is refused in words and audited once the
change is known to be offered (other refusals say their own reason first); a save the server
asks for itself (`edit_apply(token=None)`) is built on the revision Side editor checked, one
save per user, claim, action and base.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from django.core import signing

SALT = "sideapp.edits.save-token"
TOKEN_MAX_AGE = 30 * 60  # seconds a preview may wait for its confirm


class TokenRefused(Exception):
    """A confirm whose token does not fit it; the message says why, `status` is 400 or 403."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class SaveTicket:
    """What a confirm may save: its key (one save per key) and the page as the editor saw it."""

    key: str  # 64 hex digits: the audit log's token
    base_rev_id: int
    page_id: int | None = None
    title: str = ""
    untag: bool | None = False  # add, replace: the preview took {{failed verification}} off (None: the default)


def token_issue(*, user, claim, mode: str, suggestion, base_rev_id: int, page_id: int | None = None,
                title: str = "", untag: bool = False) -> str:
    """A signed token for `user`'s confirm of this change ("" for an anonymous reader: no one
    may save with it)."""
    if user is None or not user.is_authenticated:
        return ""
    payload = {"u": user.pk, "c": claim.pk, "m": mode, "s": suggestion.pk if suggestion else 0,
               "b": base_rev_id, "p": page_id, "t": title, "x": bool(untag), "n": secrets.token_hex(8)}
    return signing.dumps(payload, salt=SALT, compress=True)


def token_read(token: str, *, user, claim, mode: str, suggestion) -> SaveTicket:
    """The ticket `token` gives this confirm; TokenRefused in words for a token that was not
    issued by Side editor, was changed, is too old, or was issued for another user, claim,
    action or suggestion."""
    again = " Nothing was saved. Open the change again and confirm it from there."
    try:
        payload = signing.loads(token, salt=SALT, max_age=TOKEN_MAX_AGE)
    except signing.SignatureExpired as exc:
        raise TokenRefused(f"This preview is more than {TOKEN_MAX_AGE // 60} minutes old, so the page may have "
                           f"changed since.{again}") from exc
    except signing.BadSignature as exc:
        raise TokenRefused(f"This save token was not issued by Side editor, or was changed on its way.{again}") from exc
    if not isinstance(payload, dict) or not isinstance(payload.get("b"), int):
        raise TokenRefused(f"This save token is not one Side editor reads.{again}")
    if payload.get("u") != user.pk:
        raise TokenRefused(f"This save token was issued to another user.{again}", status=403)
    if payload.get("c") != claim.pk:
        raise TokenRefused(f"This save token is for another claim (claim {payload.get('c')}), not claim "
                           f"{claim.pk}.{again}")
    if payload.get("m") != mode or payload.get("s") != (suggestion.pk if suggestion else 0):
        raise TokenRefused(f"This save token is for another change of this claim (“{payload.get('m')}”), not "
                           f"“{mode}”.{again}")
    return SaveTicket(key=hashlib.sha256(token.encode()).hexdigest(), base_rev_id=payload["b"],
                      page_id=payload.get("p"), title=payload.get("t") or "", untag=payload.get("x") is True)


def ticket_without_token(*, user, claim, mode: str, suggestion, base_rev_id: int,
                         untag: bool | None = None) -> SaveTicket:
    """A confirm sent without a token: built on the checked revision `base_rev_id`, keyed so
    that the same user's repeat of it saves once (taking the failing tag off or not: two
    changes; None: the default, which the proposal decides)."""
    key = f"{user.pk}|{claim.pk}|{mode}|{suggestion.pk if suggestion else 0}|{base_rev_id}|{untag}"
    return SaveTicket(key=hashlib.sha256(key.encode()).hexdigest(), base_rev_id=base_rev_id, untag=untag)
