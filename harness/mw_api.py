"""The API half of the MediaWiki harness: accounts and page edits through mwclient.

A mixin so mediawiki.py can stay about installing and running the server. The
host class provides `host`, `base_url`, `admin_user`, `admin_password`,
`_admin_site`, `run_maintenance()` and `_save_state()`.
"""
from __future__ import annotations

import secrets
from typing import Iterable, Mapping

import mwclient

from harness.mw_support import MediaWikiError, loopback_session


class WikiApiMixin:
    """Logged-in mwclient sites and the edits tests and the demo need."""

    def site(self, username: str | None = None, password: str | None = None) -> mwclient.Site:
        """A new mwclient.Site on this wiki, logged in with clientlogin when a user is given."""
        site = mwclient.Site(self.host, path="/", scheme="http", pool=loopback_session(),
                             max_retries=2, retry_timeout=1)
        if username is not None:
            result = site.clientlogin(username=username, password=password)
            if result is not True:
                raise MediaWikiError(f"login of {username!r} did not pass: {result}")
            site.site_init()  # refresh mwclient's idea of the user and its rights
        return site

    @property
    def admin_site(self) -> mwclient.Site:
        """A cached mwclient.Site logged in as the admin (sysop, bureaucrat)."""
        if self._admin_site is None:
            self._admin_site = self.site(self.admin_user, self.admin_password)
        return self._admin_site

    def user_exists(self, username: str) -> bool:
        users = self.admin_site.api("query", list="users", ususers=username)["query"]["users"]
        return bool(users) and "missing" not in users[0] and "invalid" not in users[0]

    def create_account(self, username: str, password: str, *,
                       groups: Iterable[str] = ()) -> None:
        """Create the account through the API, or reset its password if it exists;
        then add it to `groups` (e.g. "bot", "sysop")."""
        if self.user_exists(username):
            self.run_maintenance("changePassword.php", "--user", username,
                                 "--password", password)
        else:
            self._api_create_account(username, password)
        if username == self.admin_user:
            self.admin_password = password
            self._admin_site = None
            self._save_state()
        groups = list(groups)
        if groups:
            self._admin_post("userrights", token_type="userrights", user=username,
                             add="|".join(groups))

    def bot_password(self, username: str, password: str, *, app_id: str = "side",
                     grants: str = "basic,editpage,highvolume") -> tuple[str, str]:
        """A bot password for `username` (an account created first when missing), as
        Special:BotPasswords would make: returns the login name "User@app" and the
        32-character password. A new app id each time, so a kept wiki never refuses it."""
        if not self.user_exists(username):
            self.create_account(username, password)
        app = f"{app_id}{secrets.token_hex(4)}"
        secret = secrets.token_hex(16)
        self.run_maintenance("createBotPassword.php", "--appid", app, "--grants", grants,
                             username, secret)
        return f"{username}@{app}", secret

    def _api_create_account(self, username: str, password: str) -> None:
        site = self.site()
        # mwclient maps unknown token types to csrf, so ask for this one directly.
        tokens = site.raw_api("query", "GET", meta="tokens", type="createaccount")
        result = site.post("createaccount", username=username, password=password,
                           retype=password, createreturnurl=self.base_url + "/",
                           createtoken=tokens["query"]["tokens"]["createaccounttoken"])
        outcome = result["createaccount"]
        if outcome.get("status") != "PASS":
            raise MediaWikiError(f"creating account {username!r} failed: "
                                 f"{outcome.get('message', outcome)}")

    def load_pages(self, pages: Mapping[str, str],
                   summary: str = "Side harness: load page") -> dict[str, int]:
        """Save every page as the admin; returns {title as given: revision id}."""
        return {title: self.edit(title, text, summary=summary) for title, text in pages.items()}

    def edit(self, title: str, text: str, *, summary: str = "Side harness: edit",
             site: mwclient.Site | None = None, bot: bool = False) -> int:
        """Save `text` as `title` (as the admin unless `site` is given); returns the revid.
        `bot`: the admin's edit is marked a bot's (upkeep, not content: patrol leaves it out)."""
        params = {"title": title, "text": text, "summary": summary}
        if bot and site is None:
            self._admin_post("userrights", token_type="userrights", user=self.admin_user, add="bot")
            params["bot"] = 1
        if site is None:
            result = self._admin_post("edit", **params)["edit"]
        else:
            result = site.post("edit", token=site.get_token("csrf"), **params)["edit"]
        if result.get("result") != "Success":
            raise MediaWikiError(f"editing {title!r} failed: {result}")
        if "nochange" in result:
            return self.current_revid(title)
        return int(result["newrevid"])

    def edit_interface(self, pages: Mapping[str, str],
                       summary: str = "Side harness: site script") -> dict[str, int]:
        """Save MediaWiki: pages (gadget definitions, site scripts and styles) as the admin,
        who needs the interface-admin group for scripts (given here; adding it twice is a no-op)."""
        self._admin_post("userrights", token_type="userrights", user=self.admin_user,
                         add="interface-admin")
        return self.load_pages(pages, summary=summary)

    def current_revid(self, title: str) -> int | None:
        """The latest revision id of `title`, None when the page does not exist."""
        query = self.admin_site.api("query", prop="revisions", rvprop="ids", titles=title)
        page = next(iter(query["query"]["pages"].values()))
        revisions = page.get("revisions") or [{}]
        return revisions[0].get("revid")

    def delete(self, title: str, reason: str = "Side harness: delete") -> None:
        self._admin_post("delete", title=title, reason=reason)

    def protect(self, title: str, level: str = "sysop", *, expiry: str = "infinite",
                reason: str = "Side harness: protect") -> None:
        """Edit- and move-protect `title` at `level` ("sysop", "autoconfirmed"; "all" lifts it)."""
        self._admin_post("protect", title=title, protections=f"edit={level}|move={level}",
                         expiry=f"{expiry}|{expiry}", reason=reason)

    def block(self, username: str, *, expiry: str = "1 day", reason: str = "Side harness: block") -> None:
        """Block `username` from editing (as the wiki's admins would)."""
        self._admin_post("block", user=username, expiry=expiry, reason=reason)

    def _admin_post(self, action: str, *, token_type: str = "csrf", **params) -> dict:
        """POST as the admin. assert=user makes an expired session fail instead of
        acting anonymously; then log in again and retry once (long demo runs)."""
        try:
            return self._post(self.admin_site, action, token_type, params)
        except mwclient.errors.APIError as exc:
            if exc.code not in ("assertuserfailed", "badtoken"):
                raise
            self._admin_site = None
            return self._post(self.admin_site, action, token_type, params)

    @staticmethod
    def _post(site: mwclient.Site, action: str, token_type: str, params: dict) -> dict:
        return site.post(action, token=site.get_token(token_type), **{"assert": "user"}, **params)
