	/*
	 * Side editor gadget, part two (inlined into side-editor.js where its placeholder
	 * comment stands): the card of a claim, the preview-and-save dialog of an action, and
	 * "check this revision" with its progress.
	 */

	// --- the card ---------------------------------------------------------------------

	function closeCard( returnFocus ) {
		var open = state.open;
		if ( !open ) {
			return;
		}
		state.open = null;
		open.marker.setAttribute( 'aria-expanded', 'false' );
		if ( open.card.parentNode ) {
			open.card.parentNode.removeChild( open.card );
		}
		if ( returnFocus ) {
			state.refocus = true; // focusing the marker again must not reopen its card
			open.marker.focus( { preventScroll: true } );
			state.refocus = false;
		}
	}

	function openCard( claim, button ) {
		if ( state.open && state.open.marker === button ) {
			return;
		}
		closeCard();
		var card = el( 'span', 'side-editor-card' );
		card.setAttribute( 'role', 'dialog' );
		card.setAttribute( 'aria-label', 'Side editor: ' + claim.verdict_words );
		fillCard( card, claim );
		button.parentNode.insertBefore( card, button.nextSibling ); // Tab goes from the marker into it
		button.setAttribute( 'aria-expanded', 'true' );
		state.open = { claim: claim, marker: button, card: card, opening: true };
		fitCard( card, button );
		setTimeout( function () {
			if ( state.open ) {
				state.open.opening = false;
			}
		}, 0 );
	}

	function fitCard( card, button ) {
		// Under its marker, inside the window; on a phone the stylesheet makes it a bottom sheet.
		if ( window.getComputedStyle( card ).position !== 'absolute' ) {
			return;
		}
		var width = document.documentElement.clientWidth;
		var shift = button.getBoundingClientRect().left - card.getBoundingClientRect().left;
		var right = card.getBoundingClientRect().right + shift;
		shift -= Math.max( 0, right - ( width - 8 ) );
		card.style.marginLeft = Math.max( shift, 8 - card.getBoundingClientRect().left ) + 'px';
	}

	function line( card, className, text ) {
		return card.appendChild( el( 'span', 'side-editor-row ' + ( className || '' ), text ) );
	}

	function fillCard( card, claim ) {
		var head = line( card, 'side-editor-head' ), close = el( 'button', 'side-editor-close', '\u00d7' );
		head.appendChild( el( 'strong', 'side-editor-verdict side-editor-' + verdictKey( claim ), claim.verdict_words ) );
		close.type = 'button';
		close.setAttribute( 'aria-label', 'Close' );
		close.addEventListener( 'click', function () {
			closeCard( true );
		} );
		head.appendChild( close );
		if ( claim.reason ) {
			line( card, 'side-editor-reason', claim.reason );
		}
		citationRows( card, claim );
		suggestionRows( card, claim );
		if ( state.findings.stale ) {
			line( card, 'side-editor-stale', 'Side editor checked revision ' + state.findings.revision +
				'; this revision is newer.' ).appendChild( checkButton( 'Check this revision' ) );
		} else {
			actionRow( card, claim );
		}
		line( card, 'side-editor-foot' ).appendChild( safeLink( claim.url, 'Open in Side editor' ) );
	}

	function citationRows( card, claim ) {
		// Each cited source with its own verdict and quote, never the claim's as its own.
		var several = claim.citations.length > 1;
		claim.citations.forEach( function ( c ) {
			// A figure reason quotes the line that gives the source's own figure: what it says.
			var says = c.verdict === 'supported' || c.verdict === 'partially_supported' ||
				( c.reason || '' ).indexOf( 'the source gives ' ) === 0, row;
			if ( several ) {
				row = line( card, 'side-editor-cited' );
				row.appendChild( safeLink( c.url, c.title || c.url ) );
				row.appendChild( el( 'span', 'side-editor-' + c.verdict,
					': ' + ( c.verdict ? c.verdict.replace( /_/g, ' ' ) : 'not checked yet' ) ) );
			}
			if ( c.quote ) {
				line( card, 'side-editor-label', says ? ( several ? 'It says:' : 'The cited source says:' ) :
					'Closest passage in ' + ( several ? 'it:' : 'the cited source:' ) );
				line( card, 'side-editor-quote' ).appendChild( el( 'q', null, c.quote ) );
			}
			partRows( card, c );
			// The archived copy its verdict read, unless the claim's reason says it already.
			if ( c.read && ( claim.reason || '' ).indexOf( c.read ) < 0 ) {
				line( card, 'side-editor-hint', 'Read in ' + c.read + '.' );
			}
		} );
	}

	function partRows( card, c ) {
		// One line per part of the claim with the lines of this source that hold it, where
		// they say more than the quote: several parts, or lines besides it.
		var parts = c.parts || [], more = parts.length > 1 || parts.some( function ( part ) {
			return part.sentences.some( function ( s ) {
				return s !== c.quote;
			} );
		} );
		if ( !more ) {
			return;
		}
		parts.forEach( function ( part ) {
			var row = line( card, 'side-editor-part' );
			row.setAttribute( 'data-side-part-verdict', part.verdict || '' );
			row.appendChild( el( 'span', 'side-editor-part-text', part.text + ': ' ) );
			row.appendChild( el( 'span', 'side-editor-' + part.verdict, part.verdict ? part.verdict.replace( /_/g, ' ' ) : '' ) );
			if ( !part.sentences.length ) {
				row.appendChild( el( 'span', 'side-editor-hint', ' (no line of the source holds it)' ) );
			}
			part.sentences.forEach( function ( s ) {
				line( card, 'side-editor-quote side-editor-part-line' ).appendChild( el( 'q', null, s ) );
			} );
		} );
	}

	function suggestionRows( card, claim ) {
		var best = supporting( claim );
		if ( !best ) {
			if ( claim.verdict !== 'supported' ) {
				line( card, 'side-editor-hint side-editor-none', claim.needs_citation ?
					'No source that supports it was found.' : 'No better source was found.' );
			}
			return;
		}
		var row = line( card, 'side-editor-suggestion', best.better ? 'A better source: ' : 'A source found: ' );
		row.appendChild( safeLink( best.url, best.title || best.url ) );
		if ( best.quote ) {
			line( card, 'side-editor-quote' ).appendChild( el( 'q', null, best.quote ) );
		}
	}

	function actionRow( card, claim ) {
		if ( !claim.actions.length ) {
			return;
		}
		if ( !cfg.wgUserName ) {
			line( card, 'side-editor-hint', 'Log in to the wiki to fix this from here.' );
			return;
		}
		var row = line( card, 'side-editor-actions' );
		claim.actions.forEach( function ( offer ) {
			var words = offer.kind === 'dead_link' ? 'Tag \u201cdead link\u201d' : offer.action === 'correct' ?
				'Change \u201c' + offer.claim_figure + '\u201d to \u201c' + offer.source_figure + '\u201d' :
				( ACTION_WORDS[ offer.action ] || offer.action );
			var button = el( 'button', 'side-editor-button', words );
			button.type = 'button';
			button.setAttribute( 'data-side-action', offer.action );
			button.addEventListener( 'click', function () {
				propose( claim, offer, button, card );
			} );
			row.appendChild( button );
		} );
	}

	document.addEventListener( 'keydown', function ( event ) {
		if ( event.key === 'Escape' && state.open && !document.querySelector( '.side-editor-dialog' ) ) {
			closeCard( true );
		}
	} );
	document.addEventListener( 'click', function ( event ) {
		// Closes an open card; never stops the click, so the wiki's own links work as before.
		var open = state.open;
		if ( open && !open.opening && !open.card.contains( event.target ) && !open.marker.contains( event.target ) ) {
			closeCard();
		}
	} );
	document.addEventListener( 'focusin', function ( event ) {
		var open = state.open;
		if ( open && !open.card.contains( event.target ) && !open.marker.contains( event.target ) &&
			!document.querySelector( '.side-editor-dialog' ) ) {
			closeCard();
		}
	} );

	// --- acting: proposal, preview, save as the reader ---------------------------------

	function propose( claim, offer, button, card ) {
		var path = '/api/v1/claims/' + claim.id + '/proposal?action=' + encodeURIComponent( offer.action ) +
			( offer.suggestion ? '&suggestion=' + offer.suggestion : '' );
		button.disabled = true;
		ask( path ).then( function ( proposal ) {
			button.disabled = false;
			preview( claim, proposal, button );
		}, function ( error ) {
			button.disabled = false;
			line( card, 'side-editor-problem', error.message );
		} );
	}

	function preview( claim, proposal, opener ) {
		var overlay = el( 'div', 'side-editor-overlay' ), dialog = el( 'div', 'side-editor-dialog' );
		var diff = el( 'pre', 'side-editor-diff' ), buttons = el( 'div', 'side-editor-actions' );
		var confirm = el( 'button', 'side-editor-button side-editor-primary', 'Save as ' + cfg.wgUserName );
		var cancel = el( 'button', 'side-editor-button', 'Cancel' ), problem = el( 'p', 'side-editor-problem' );
		dialog.setAttribute( 'role', 'dialog' );
		dialog.setAttribute( 'aria-modal', 'true' );
		dialog.setAttribute( 'aria-label', ACTION_WORDS[ proposal.action ] );
		dialog.appendChild( el( 'h2', null, ACTION_WORDS[ proposal.action ] + ': ' + proposal.title ) );
		dialog.appendChild( el( 'p', null, 'Edit summary: ' + proposal.summary ) );
		proposal.diff_lines.forEach( function ( row ) {
			// Word by word, as Side editor's own preview: the changed pieces of a line marked.
			var span = diff.appendChild( el( 'span', 'side-editor-diff-' + row.kind ) );
			row.parts.forEach( function ( part ) {
				span.appendChild( part[ 1 ] && row.kind !== 'same' ? el( row.kind === 'add' ? 'ins' : 'del', null, part[ 0 ] ) :
					document.createTextNode( part[ 0 ] ) );
			} );
			span.appendChild( document.createTextNode( '\n' ) );
		} );
		dialog.appendChild( diff );
		dialog.appendChild( el( 'p', 'side-editor-note', 'This is saved as your own edit on this wiki, ' +
			'in your name and history; the wiki\u2019s own rules apply.' ) );
		confirm.type = cancel.type = 'button';
		confirm.setAttribute( 'data-side-confirm', '' );
		buttons.appendChild( confirm );
		buttons.appendChild( cancel );
		dialog.appendChild( buttons );
		dialog.appendChild( problem );
		overlay.appendChild( dialog );
		document.body.appendChild( overlay );
		function done() {
			document.body.removeChild( overlay );
			document.removeEventListener( 'keydown', onKey, true );
			opener.focus();
		}
		function onKey( event ) {
			if ( event.key === 'Escape' ) {
				event.stopPropagation();
				done();
			}
		}
		document.addEventListener( 'keydown', onKey, true );
		cancel.addEventListener( 'click', done );
		confirm.addEventListener( 'click', function () {
			confirm.disabled = cancel.disabled = true;
			problem.textContent = 'Saving\u2026';
			save( proposal ).then( saved, function ( message ) {
				problem.textContent = message;
				cancel.disabled = false;
			} );
		} );
		confirm.focus();
	}

	function conflict( proposal, latest ) {
		return 'Edit conflict: the page was edited since Side editor checked it (checked revision ' +
			proposal.base_revision + ', now ' + latest + '). Nothing was saved; check this revision first.';
	}

	function save( proposal ) {
		var api = new mw.Api(), query = { action: 'query', prop: 'revisions', titles: proposal.title,
			rvprop: 'ids|timestamp|content', rvslots: 'main', formatversion: 2 };
		if ( proposal.section !== null ) {
			query.rvsection = proposal.section;
		}
		// The page must still be the revision the change was built on, and the section what
		// Side editor read; the wiki checks baserevid and basetimestamp again as it saves.
		return api.get( query ).then( function ( data ) {
			var page = data.query.pages[ 0 ], rev = page.revisions && page.revisions[ 0 ];
			if ( !rev ) {
				return $.Deferred().reject( 'This page no longer exists; nothing was saved.' ).promise();
			}
			if ( rev.revid !== proposal.base_revision ) {
				return $.Deferred().reject( conflict( proposal, rev.revid ) ).promise();
			}
			if ( proposal.section !== null && rev.slots.main.content.replace( /\s+$/, '' ) !== proposal.old_text ) {
				return $.Deferred().reject( 'The section is not as Side editor read it; nothing was saved. ' +
					'Open the claim in Side editor instead.' ).promise();
			}
			var edit = { action: 'edit', title: proposal.title, text: proposal.text, summary: proposal.summary,
				baserevid: proposal.base_revision, basetimestamp: proposal.base_timestamp, nocreate: 1,
				assert: 'user', formatversion: 2, errorformat: 'plaintext' };
			if ( proposal.section !== null ) {
				edit.section = proposal.section;
			}
			return api.postWithEditToken( edit );
		}, refused ).then( function ( data ) {
			if ( !data || !data.edit || data.edit.result !== 'Success' ) {
				return $.Deferred().reject( 'The wiki did not save the edit.' ).promise();
			}
			return data.edit;
		}, refused );
	}

	function refused( code, data ) {
		// mw.Api fails with (code, result); the checks above fail with a sentence.
		return $.Deferred().reject( data && typeof data === 'object' ? apiProblem( code, data ) : code ).promise();
	}

	function apiProblem( code, data ) {
		if ( code === 'editconflict' ) {
			return 'Edit conflict: the page was edited while the change was being saved. Nothing was saved.';
		}
		var errors = data && data.errors;
		return 'The wiki did not save the edit: ' + ( errors && errors[ 0 ] && errors[ 0 ].text ? errors[ 0 ].text : code );
	}

	function saved() {
		// A saved edit makes a new revision: ask Side editor to check it, then show it.
		var next = function () {
			window.location.href = mw.util.getUrl( cfg.wgPageName );
		};
		ask( '/api/v1/scan', { body: { wiki_id: cfg.wgDBname, page_id: cfg.wgArticleId } } ).then( next, next );
	}

	// --- "check this revision" and its progress -------------------------------------------

	function startCheck() {
		say( 'Asking Side editor to check this revision\u2026' );
		ask( '/api/v1/scan', { body: { wiki_id: cfg.wgDBname, page_id: cfg.wgArticleId } } ).then( function ( job ) {
			follow( job.url );
		}, function ( error ) {
			say( error.message );
		} );
	}

	function follow( url ) {
		var shownVerdicts = false;
		clearTimeout( state.polling );
		function poll() {
			ask( url ).then( function ( job ) {
				var stages = job.stages, verify = stages.verify || { done: 0, total: 0 };
				progress( job );
				if ( !shownVerdicts && stages.scan && stages.scan.done === stages.scan.total &&
					verify.total > 0 && verify.done === verify.total ) {
					shownVerdicts = true; // verdicts first, suggestions when the check ends
					// After a check it asked for, never the browser's kept answer of before it.
					ask( findingsPath(), { cache: 'no-cache' } ).then( loadedAgain );
				}
				if ( job.finished ) {
					ask( findingsPath(), { cache: 'no-cache' } ).then( function ( findings ) {
						loadedAgain( findings );
						say( 'Side editor finished checking revision ' + findings.revision + ': ' +
							counted( findings ) + '.', [ allToggle() ] );
					}, function ( error ) {
						say( 'The check ended: ' + ( job.reason || job.status ) + ' (' + error.message + ')' );
					} );
					return;
				}
				state.polling = setTimeout( poll, 2000 );
			}, function ( error ) {
				say( 'Side editor could not say how the check goes (' + error.message + ').' );
			} );
		}
		poll();
	}

	function loadedAgain( findings ) {
		// New findings redraw the markers; a card the reader has open stays open.
		var openId = state.open && state.open.claim.id, again = null, button;
		state.findings = findings;
		drawMarkers();
		findings.claims.forEach( function ( claim ) {
			again = claim.id === openId ? claim : again;
		} );
		button = again && content.querySelector( '.side-editor-marker[data-side-claim="' + again.id + '"]' );
		if ( button ) {
			openCard( again, button );
		}
	}

	function progress( job ) {
		var parts = [], done = 0, total = 0, bar = el( 'progress', 'side-editor-progress' );
		[ 'scan', 'fetch', 'verify', 'suggest' ].forEach( function ( name ) {
			var stage = job.stages[ name ];
			if ( stage && stage.total ) {
				parts.push( STAGE_WORDS[ name ] + ' ' + stage.done + '/' + stage.total );
				done += stage.done;
				total += stage.total;
			}
		} );
		bar.max = Math.max( total, 1 );
		bar.value = done;
		say( 'Side editor is checking this revision: ' + ( parts.join( ', ' ) || 'queued' ) + '.', [ bar ] );
	}
