"""The gadget on the wiki's article page: its script and stylesheet, served by Side editor
(`/gadget/side-editor.js`, `.css`), and the wiki pages that install it."""
