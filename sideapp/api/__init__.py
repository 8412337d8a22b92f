"""The public read API (JSON, versioned, no login): what the gadget on the article page and
MediaWiki's Edit Check ask of Side editor. `http.public_api` is how an endpoint opts in."""
