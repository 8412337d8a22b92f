"""What services report they did, for the pipeline to decide what runs next.

Services record work (a scan job, a corpus import, a request to update the index) and
send one of these signals; the pipeline listens (pipeline/receivers.py, connected when the
app is ready) and queues the stages that follow. So services never import the pipeline,
and the pipeline alone knows what runs after what.
"""
from django.dispatch import Signal

# A scan job was recorded and wants its articles read: kwargs `job`.
scan_requested = Signal()
# A corpus file was uploaded for import: kwargs `record` (a CorpusImport).
corpus_import_requested = Signal()
# An admin asked for the index to be brought up to date now: no kwargs.
corpus_update_requested = Signal()
# What a page's findings say changed (a verdict, a scan opened or ended, a move): kwargs
# `articles` (Article rows or their primary keys). The API drops what it kept of them.
findings_changed = Signal()
