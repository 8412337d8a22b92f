"""The LocalSettings.php the harness writes beside install.php's own settings.

Kept apart from mediawiki.py so the PHP is easy to read and review on its own.
install.php's generated file is renamed to InstallSettings.php and included first;
everything below overrides it for a throwaway loopback test/demo wiki.
"""

SITE_NAME = "Side Demo Wiki"

# Environment variable carrying the wiki's base URL; read by LocalSettings.php
# because `php -S` gets a different free port on every start.
SERVER_ENV = "SIDE_MW_SERVER"

LOCAL_SETTINGS = r"""<?php
// Written by harness/mediawiki.py. install.php's output is in
// InstallSettings.php; this file only overrides what a local test wiki needs.
if ( !defined( 'MEDIAWIKI' ) ) {
	exit;
}
require_once __DIR__ . '/InstallSettings.php';

// The port changes on each start of `php -S`, so the URL comes from the environment.
$wgServer = getenv( '%(server_env)s' ) ?: $wgServer;
$wgCanonicalServer = $wgServer;
$wgSitename = '%(site_name)s';
// The wiki's own logo, not MediaWiki's "Set $wgLogos" placeholder (inline SVG: no upload).
$wgLogos = [ '1x' => 'data:image/svg+xml,' . rawurlencode(
	'<svg xmlns="http://www.w3.org/2000/svg" width="135" height="135" viewBox="0 0 135 135">'
	. '<circle cx="67" cy="67" r="60" fill="#eaf3ff" stroke="#3366cc" stroke-width="4"/>'
	. '<text x="67" y="62" font-family="sans-serif" font-size="22" text-anchor="middle" fill="#223">Side</text>'
	. '<text x="67" y="88" font-family="sans-serif" font-size="18" text-anchor="middle" fill="#223">demo wiki</text></svg>'
) ];

// No uploads and no mail: nothing leaves the machine and no directory outside
// the workdir is written.
$wgEnableUploads = false;
$wgEnableEmail = false;
$wgEnableUserEmail = false;
$wgEmailAuthentication = false;
$wgEmailConfirmToEdit = false;
// Removed from MediaWiki core long ago (the API is always on); kept for old versions.
$wgEnableAPI = true;
$wgEnableWriteAPI = true;

// Jobs run synchronously at the end of the request that queued them; together
// with the single-process `php -S` this makes links and category membership
// queryable by the very next API call after a save.
$wgJobRunRate = 1;
$wgRunJobsAsync = false;

// Tests and the demo loader edit quickly and log in often: no throttles.
$wgRateLimits = [];
foreach ( [ '*', 'user', 'bot', 'sysop' ] as $group ) {
	$wgGroupPermissions[$group]['noratelimit'] = true;
}
$wgAccountCreationThrottle = [];
$wgPasswordAttemptThrottle = [];
$wgGroupPermissions['*']['createaccount'] = true;

// The harness admin is a wiki's admin as on Wikipedia: besides deleting and restoring pages and
// rolling back (sysop's by default), it hides revisions' text (revision deletion), which stock
// MediaWiki leaves to the suppress group.
$wgGroupPermissions['sysop']['deleterevision'] = true;
$wgGroupPermissions['sysop']['deletelogentry'] = true;

// Short test passwords must log in with status PASS; the default policies ask
// for a password change (status UI) on "common" or short passwords.
foreach ( array_keys( $wgPasswordPolicy['policies'] ) as $group ) {
	$wgPasswordPolicy['policies'][$group] = [ 'MinimalPasswordLength' => 1 ];
}

// Errors end up in the workdir, where the harness shows them on failure.
$wgShowExceptionDetails = true;
$wgDebugLogGroups['exception'] = __DIR__ . '/logs/exception.log';
$wgDebugLogGroups['error'] = __DIR__ . '/logs/error.log';
$wgDebugLogGroups['fatal'] = __DIR__ . '/logs/fatal.log';

// Cite renders <ref>/<references/>, ParserFunctions lets the demo templates branch.
wfLoadExtension( 'Cite' );
wfLoadExtension( 'ParserFunctions' );
$wgPFEnableStringFunctions = true;

// Gadgets carries Side editor's gadget on the article page (MediaWiki:Gadgets-definition).
// Interface admins edit site scripts; the harness admin is one (see mw_api.grant_interface_admin).
wfLoadExtension( 'Gadgets' );
"""


def render_local_settings() -> str:
    """The LocalSettings.php text for a harness wiki."""
    return LOCAL_SETTINGS % {"server_env": SERVER_ENV, "site_name": SITE_NAME}
