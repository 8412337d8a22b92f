"""Names of the pipeline's queues and stages.

Plain Python with no Django imports, so that settings can build RQ_QUEUES from it; the
stages themselves (their jobs, rows and hand-ons) are declared in pipeline/stages.py.
"""
from enum import StrEnum


class Queue(StrEnum):
    SCAN = "scan"  # cheap work: reading articles
    FETCH = "fetch"  # cheap work: downloading cited pages
    VERIFY = "verify"  # model work: one model per worker process
    DEFAULT = "default"  # admins' imports


# The order a worker listening on several queues takes work in, whatever order its command
# line names them: the queue nearest to a verdict first. A fetch hands a claim to the
# verifier and a scan only makes more fetches, so fetches go before scans: the claims of
# the first articles (or edits) are checked while later ones are still being read, instead
# of every article being read before the first page is fetched.
PRIORITY = (Queue.VERIFY, Queue.FETCH, Queue.SCAN, Queue.DEFAULT)


class StageName(StrEnum):
    EXPAND = "expand"
    SCAN = "scan"
    FETCH = "fetch"
    ARCHIVE = "archive"  # the copy of a cited page as it was cited, from a web archive
    CAPTURE = "capture"  # a live page that supports its claim, sent to a web archive (optional)
    VERIFY = "verify"
    SUGGEST = "suggest"
    CORPUS = "corpus"
    IMPORT = "import"


QUEUES = tuple(q.value for q in Queue)
