"""Why a wiki refused to save an edit, in words an editor can act on.

MediaWiki names each refusal with an error code (API:Edit); the message the wiki adds
(`info`) is its own wording, kept in brackets after ours. Pure functions: no Django.
"""
from __future__ import annotations

_PROTECTED = {"protectedpage", "cascadeprotected", "protectednamespace", "protectednamespace-interface",
              "protectedinterface", "protectedtitle", "customcssprotected", "customjsprotected",
              "customjsonprotected", "sitecssprotected", "sitejsprotected", "sitejsonprotected"}
_BLOCKED = {"blocked", "autoblocked", "partiallyblocked", "systemblocked", "globalblocking-blocked",
            "blockedtext"}
_NO_RIGHT = {"permissiondenied", "noedit", "noedit-anon", "writeapidenied", "cantcreate", "cantcreate-anon",
             "mwoauth-invalid-authorization", "nocreate-loggedin"}
_FILTERED = {"abusefilter-disallowed", "abusefilter-warning", "abusefilter-blocked"}
_LINK_REFUSED = {"spamblacklist", "spamprotectiontext"}

BY_HAND = "You can still make the change by hand with your own account."


def _said(info: str) -> str:
    info = " ".join((info or "").split())
    return f" (the wiki says: “{info[:300]}”)" if info else ""


def refusal_sentence(code: str, info: str, title: str) -> str:
    """What happened, that nothing was saved, and what to do."""
    said = _said(info)
    if code in _PROTECTED:
        return (f"the page “{title}” is protected on the wiki and the tool's account may not edit it{said}. "
                "Nothing was saved. Ask for the change on the article's talk page (an edit request), "
                "or save it by hand if your own account may edit the page.")
    if code in _BLOCKED:
        return (f"the tool's account is blocked from editing on the wiki{said}. Nothing was saved. "
                f"An admin of the wiki can lift the block. {BY_HAND}")
    if code in _NO_RIGHT:
        return (f"the tool's account has no right to edit “{title}” on the wiki{said}. Nothing was saved. "
                f"Its bot password needs the grant to edit pages (Special:BotPasswords). {BY_HAND}")
    if code in _FILTERED or code.startswith("abusefilter"):
        return (f"the wiki's abuse filter stopped this edit{said}. Nothing was saved. Check the change "
                f"against the wiki's rules; the wiki's admins can tell you what the filter looks for. {BY_HAND}")
    if code in _LINK_REFUSED:
        return (f"the wiki does not accept links to this site (its spam blacklist){said}. Nothing was saved. "
                "Choose another source for the claim.")
    if code == "titleblacklist-forbidden":
        return f"the wiki's title blacklist forbids editing “{title}”{said}. Nothing was saved. {BY_HAND}"
    if code == "readonly":
        return f"the wiki is read-only for now (maintenance){said}. Nothing was saved. Try again later."
    if code == "ratelimited":
        return ("the wiki limits how fast the tool's account may edit, and this edit came too soon. "
                "Nothing was saved. Wait a minute and try again.")
    if code == "captcha":
        return ("the wiki asks for a CAPTCHA, which the tool cannot answer. Nothing was saved. The wiki's "
                f"admins can exempt the tool's account (the right skipcaptcha). {BY_HAND}")
    return f"the wiki refused the edit of “{title}”{said} (code {code}). Nothing was saved."


def failure_code(result: dict) -> tuple[str, str]:
    """(code, info) of an edit answer whose result is not Success: MediaWiki reports a
    CAPTCHA, an abuse filter or the spam blacklist this way rather than as an error."""
    if "captcha" in result:
        return "captcha", ""
    for key in ("abusefilter", "spamblacklist", "titleblacklist"):
        if key in result:
            detail = result[key]
            info = (detail.get("description") or detail.get("info") or "") if isinstance(detail, dict) else str(detail)
            return ("abusefilter-disallowed" if key == "abusefilter" else
                    "spamblacklist" if key == "spamblacklist" else "titleblacklist-forbidden"), info
    return str(result.get("code") or result.get("result") or "unknown"), str(result.get("info") or "")
