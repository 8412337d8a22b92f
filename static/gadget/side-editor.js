/*
 * Side editor on the article page: marks the claims Side editor has findings for, opens a
 * card per claim, and saves a fix as the reader's own wiki edit (mw.Api, their session).
 * Served by Side editor at /gadget/side-editor.js; see docs/gadget.md.
 *
 * ECMAScript 5 only (MediaWiki 1.39 refuses other gadget code), no eval, no inline
 * handlers; text from the API reaches the page as text nodes only, never as HTML.
 */
( function () {
	'use strict';

	var BASE = '__SIDE_BASE__';
	var VERSION = '__SIDE_VERSION__';
	var LOAD_STYLE = '__SIDE_STYLE__' === 'load';
	var SHORT = {
		not_supported: [ '\u2717', 'unsupported' ],
		partially_supported: [ '\u25D0', 'partial' ],
		source_unavailable: [ '?', 'unreadable' ],
		supported: [ '\u2713', 'supported' ],
		needs_citation: [ '+', 'needs a source' ]
	};
	var ALL_KEY = 'side-editor-all-checks'; // this reader's "show all checks", kept in localStorage
	var ACTION_WORDS = {
		tag: 'Tag \u201cfailed verification\u201d',
		add: 'Add the suggested source',
		replace: 'Replace the cited source',
		archive: 'Add the archived copy',
		correct: 'Correct the figure'
	};
	var STAGE_WORDS = { scan: 'reading the page', fetch: 'reading sources',
		verify: 'checking claims', suggest: 'looking for better sources' };
	var PORTLETS = { minerva: 'p-tb', 'vector-2022': 'p-tb', vector: 'p-tb', monobook: 'p-tb', timeless: 'p-tb' };

	var cfg, content, panel, state = { findings: null, open: null, polling: null, refocus: false };

	function el( tag, className, text ) {
		var node = document.createElement( tag );
		if ( className ) {
			node.className = className;
		}
		if ( text !== undefined && text !== null ) {
			node.appendChild( document.createTextNode( String( text ) ) );
		}
		return node;
	}

	function safeLink( url, text ) {
		// Only http(s) addresses become links; anything else stays text.
		if ( !/^https?:\/\//i.test( String( url || '' ) ) ) {
			return el( 'span', null, text || url );
		}
		var a = el( 'a', null, text || url );
		a.href = url;
		a.target = '_blank';
		a.rel = 'noopener noreferrer nofollow';
		return a;
	}

	function mark( status ) {
		document.documentElement.setAttribute( 'data-side-editor', status );
		if ( window.performance && performance.mark ) {
			performance.mark( 'side-editor:' + status );
		}
	}

	// --- talking to Side editor ------------------------------------------------------

	function ask( path, options ) {
		var init = { method: 'GET', credentials: 'omit', mode: 'cors', headers: {} };
		if ( options && options.body ) {
			init.method = 'POST';
			init.headers[ 'Content-Type' ] = 'application/json';
			init.body = JSON.stringify( options.body );
		}
		if ( options && options.cache ) {
			init.cache = options.cache; // 'no-cache': revalidate (ETag) instead of a kept answer
		}
		return fetch( path.indexOf( 'http' ) === 0 ? path : BASE + path, init ).then( function ( response ) {
			return response.json().then( function ( data ) {
				if ( !response.ok ) {
					var error = new Error( data && data.error ? data.error : 'Side editor answered ' + response.status );
					error.code = data && data.code;
					error.retryAfter = response.headers.get( 'Retry-After' );
					throw error;
				}
				return data;
			}, function () {
				throw new Error( 'Side editor answered ' + response.status );
			} );
		} );
	}

	function findingsPath() {
		return '/api/v1/findings?wiki_id=' + encodeURIComponent( cfg.wgDBname ) +
			'&page_id=' + cfg.wgArticleId + '&revision=' + cfg.wgRevisionId;
	}

	// --- the panel: one line under the title when there is something to say -------------

	function say( text, extra ) {
		while ( panel.firstChild ) {
			panel.removeChild( panel.firstChild );
		}
		panel.appendChild( el( 'span', 'side-editor-line', text ) );
		( extra || [] ).forEach( function ( node ) {
			panel.appendChild( node );
		} );
		panel.hidden = false;
	}

	function summary() {
		var f = state.findings;
		if ( !f ) {
			return say( 'Side editor has not checked this page yet.', [ checkButton( 'Check this page' ) ] );
		}
		var line = 'Side editor checked revision ' + f.revision + ': ' + counted( f ) + '.';
		say( f.stale ? line + ' This revision is newer.' : line,
			f.stale ? [ checkButton( 'Check this revision' ), allToggle() ] : [ allToggle() ] );
	}

	function counted( f ) {
		var shown = f.claims.filter( wanted ).length, rest = f.claims.length - shown;
		return shown + ( shown === 1 ? ' claim' : ' claims' ) + ' to look at' +
			( rest ? ', ' + rest + ' supported' : '' );
	}

	// Supported checks are hidden unless this reader asked to see all checks.
	function showAll() {
		try {
			return window.localStorage.getItem( ALL_KEY ) === '1';
		} catch ( e ) {
			return false;
		}
	}

	function wanted( claim ) {
		return claim.verdict !== 'supported' || showAll() || rescued( claim );
	}

	// Supported in the archived copy as cited, which can be written in: the live page is gone
	// or changed, so the claim still needs a reader's attention.
	function rescued( claim ) {
		return claim.actions.some( function ( a ) {
			return a.action === 'archive' && a.kind === 'archive_link';
		} );
	}

	function allToggle() {
		var label = el( 'label', 'side-editor-all' ), box = el( 'input' );
		box.type = 'checkbox';
		box.checked = showAll();
		box.addEventListener( 'change', function () {
			try {
				window.localStorage[ box.checked ? 'setItem' : 'removeItem' ]( ALL_KEY, '1' );
			} catch ( e ) {}
			drawMarkers();
		} );
		label.appendChild( box );
		label.appendChild( document.createTextNode( ' Show all checks' ) );
		return label;
	}

	function checkButton( label ) {
		var button = el( 'button', 'side-editor-button side-editor-check', label );
		button.type = 'button';
		button.addEventListener( 'click', function () {
			startCheck();
		} );
		return button;
	}

	// --- markers --------------------------------------------------------------------

	function runEnd( sup ) {
		// The last of the footnote markers that follow each other from this one on.
		var node = sup, next;
		for ( ;; ) {
			next = node.nextSibling;
			if ( next && isBlank( next ) && next.nextSibling && isRef( next.nextSibling ) ) {
				next = next.nextSibling;
			}
			if ( !next || !isRef( next ) ) {
				return node;
			}
			node = next;
		}
	}

	function isRef( node ) {
		return node.nodeType === 1 && node.tagName === 'SUP' && /(^|\s)reference(\s|$)/.test( node.className );
	}

	function isBlank( node ) {
		return node.nodeType === 3 && !/\S/.test( node.nodeValue );
	}

	function textBefore( sup ) {
		var text = '', node = sup;
		while ( isRef( node.previousSibling || {} ) || isBlank( node.previousSibling || {} ) ) {
			node = node.previousSibling;
		}
		for ( node = node.previousSibling; node && text.length < 400; node = node.previousSibling ) {
			if ( !isRef( node ) ) {
				text = ( node.textContent || '' ) + text;
			}
		}
		return text.replace( /\s+/g, ' ' ).replace( /\s$/, '' );
	}

	function endsWithTarget( sup, target ) {
		var words = String( target || '' ).replace( /\s+/g, ' ' ).split( ' ' ).slice( -6 ).join( ' ' );
		return words.length > 0 && textBefore( sup ).slice( -words.length ) === words;
	}

	function locate( claim, runs ) {
		// The scanned revision's marker ids hold on that revision; on another one the text
		// before the marker must still read as the claim, else the claim is looked for.
		var sup = claim.after && document.getElementById( claim.after );
		var same = state.findings.revision === cfg.wgRevisionId;
		if ( sup && content.contains( sup ) && ( same || endsWithTarget( sup, claim.target ) ) ) {
			return runEnd( sup );
		}
		if ( !claim.target ) {
			return null;
		}
		if ( claim.needs_citation ) { // no footnote: after its {{citation needed}} tag
			runs.tags = runs.tags || tagRuns();
			return firstFit( runs.tags, claim.target );
		}
		runs.list = runs.list || allRuns();
		return firstFit( runs.list, claim.target );
	}

	function firstFit( list, target ) {
		for ( var i = 0; i < list.length; i++ ) {
			if ( !list[ i ].used && endsWithTarget( list[ i ].sup, target ) ) {
				list[ i ].used = true;
				return list[ i ].end;
			}
		}
		return null;
	}

	function tagRuns() {
		return Array.prototype.filter.call( content.querySelectorAll( 'sup' ), function ( sup ) {
			return !isRef( sup ) && /citation\s+needed/i.test( sup.textContent );
		} ).map( function ( sup ) {
			return { sup: sup, end: sup, used: false };
		} );
	}

	function allRuns() {
		var runs = [];
		Array.prototype.forEach.call( content.querySelectorAll( 'sup.reference' ), function ( sup ) {
			var prev = sup.previousSibling;
			if ( prev && isBlank( prev ) ) {
				prev = prev.previousSibling;
			}
			if ( !prev || !isRef( prev ) ) {
				runs.push( { sup: sup, end: runEnd( sup ), used: false } );
			}
		} );
		return runs;
	}

	function clearMarkers() {
		closeCard();
		Array.prototype.forEach.call( content.querySelectorAll( '.side-editor-marker' ), function ( node ) {
			node.parentNode.removeChild( node );
		} );
	}

	function drawMarkers() {
		var runs = {};
		clearMarkers();
		state.findings.claims.filter( wanted ).forEach( function ( claim ) {
			var end = locate( claim, runs );
			if ( end && end.parentNode ) {
				end.parentNode.insertBefore( marker( claim ), end.nextSibling );
			}
		} );
	}

	function verdictKey( claim ) {
		return claim.verdict || ( claim.needs_citation ? 'needs_citation' : 'supported' );
	}

	function supporting( claim ) {
		// The best suggested page the verifier finds the claim in; no other is offered.
		var best = null;
		claim.suggestions.forEach( function ( s ) {
			if ( s.verdict === 'supported' && ( !best || ( s.better && !best.better ) ) ) {
				best = s;
			}
		} );
		return best;
	}

	function marker( claim ) {
		var key = verdictKey( claim ), short = SHORT[ key ] || SHORT.supported;
		if ( key === 'needs_citation' && supporting( claim ) ) {
			short = [ '+', 'source found' ];
		} else if ( key === 'supported' && rescued( claim ) ) {
			short = [ '\u2713', 'in archived copy' ];
		}
		var button = el( 'button', 'side-editor-marker side-editor-' + key );
		button.type = 'button';
		button.setAttribute( 'data-side-verdict', key );
		button.setAttribute( 'data-side-claim', String( claim.id ) );
		button.setAttribute( 'aria-haspopup', 'dialog' );
		button.setAttribute( 'aria-expanded', 'false' );
		button.title = 'Side editor: ' + claim.verdict_words;
		button.appendChild( el( 'span', 'side-editor-icon', short[ 0 ] ) ).setAttribute( 'aria-hidden', 'true' );
		button.appendChild( el( 'span', 'side-editor-label', short[ 1 ] ) );
		button.appendChild( el( 'span', 'side-editor-sr', ': ' + claim.verdict_words + ' (Side editor)' ) );
		button.addEventListener( 'click', function () {
			openCard( claim, button );
		} );
		button.addEventListener( 'focus', function () {
			if ( !state.refocus ) {
				openCard( claim, button );
			}
		} );
		return button;
	}

	// --- starting up ------------------------------------------------------------------

	function portletLink() {
		var link = mw.util.addPortletLink( PORTLETS[ cfg.skin ] || 'p-tb', '#', 'Check sources', 't-side-editor',
			'What Side editor found about the sources of this page' ) ||
			mw.util.addPortletLink( 'p-cactions', '#', 'Check sources', 't-side-editor' );
		if ( link ) {
			link.addEventListener( 'click', function ( event ) {
				event.preventDefault(); // our own link only; the wiki's links are never touched
				summary();
				panel.focus();
			} );
		}
	}

	function loaded( findings ) {
		mark( 'findings' );
		state.findings = findings;
		drawMarkers();
		if ( findings.stale ) {
			summary();
		}
		if ( findings.scan ) {
			follow( findings.scan );
		}
		mark( 'ready' );
	}

	function start() {
		cfg = mw.config.get( [ 'wgNamespaceNumber', 'wgAction', 'wgArticleId', 'wgRevisionId', 'wgDBname',
			'wgPageName', 'wgUserName', 'skin' ] );
		content = document.querySelector( '#mw-content-text .mw-parser-output' ) || document.getElementById( 'mw-content-text' );
		if ( cfg.wgNamespaceNumber !== 0 || cfg.wgAction !== 'view' || !cfg.wgArticleId || !cfg.wgRevisionId ||
			!content || mw.util.getParamValue( 'diff' ) ) {
			return;
		}
		if ( LOAD_STYLE ) {
			mw.loader.load( BASE + '/gadget/side-editor.css?v=' + VERSION, 'text/css' );
		}
		panel = el( 'div', 'side-editor-panel' );
		panel.setAttribute( 'role', 'status' );
		panel.tabIndex = -1;
		panel.hidden = true;
		content.parentNode.insertBefore( panel, content );
		portletLink();
		mark( 'loading' );
		ask( findingsPath() ).then( loaded, function ( error ) {
			if ( error.code === 'not_scanned' ) {
				mark( 'not-scanned' );
				return;
			}
			say( 'Side editor is not available right now (' + error.message + ').' );
			mark( 'failed' );
		} );
	}

	// __SIDE_PARTS__

	mw.loader.using( [ 'mediawiki.util', 'mediawiki.api' ] ).then( function () {
		try {
			start();
		} catch ( e ) {
			// A failure of Side editor leaves the page as it was.
			mark( 'failed' );
		}
	} );
}() );
