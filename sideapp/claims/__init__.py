"""Claims, their citations, verdicts and suggested sources; the editors' pages."""
