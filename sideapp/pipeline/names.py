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


class StageName(StrEnum):
    EXPAND = "expand"
    SCAN = "scan"
    FETCH = "fetch"
    VERIFY = "verify"
    SUGGEST = "suggest"
    CORPUS = "corpus"
    IMPORT = "import"


QUEUES = tuple(q.value for q in Queue)
