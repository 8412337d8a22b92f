"""The app's models, one module per feature; Django finds them all through here.

scans:   Wiki, Article, ArticleTitle, Revision, ScanJob, ScanItem
sources: Source, SourceDocument, ArchiveLookup, ArchivedCopy
claims:  Citation, Claim, ClaimCitation, RevisionClaim, Suggestion
corpus:  CorpusImport, CorpusPassage, CorpusReplica
edits:   AuditEntry
patrol:  PatrolCursor, PatrolEdit, PatrolRow, PatrolMark, FeedToken
"""
from sideapp.claims.models import Citation, Claim, ClaimCitation, RevisionClaim, Suggestion
from sideapp.corpus.models import CorpusImport, CorpusPassage, CorpusReplica
from sideapp.edits.models import AuditEntry
from sideapp.patrol.models import FeedToken, PatrolCursor, PatrolEdit, PatrolMark, PatrolRow
from sideapp.scans.models import Article, ArticleTitle, Revision, ScanItem, ScanJob, Wiki
from sideapp.sources.models import ArchivedCopy, ArchiveLookup, Source, SourceDocument

__all__ = [
    "Article", "ArticleTitle", "AuditEntry", "Citation", "Claim", "ClaimCitation", "CorpusImport", "CorpusPassage", "CorpusReplica", "FeedToken",
    "PatrolCursor", "PatrolEdit", "PatrolMark", "PatrolRow", "Revision", "RevisionClaim",
    "ScanItem", "ScanJob", "Source", "SourceDocument", "Suggestion", "Wiki", "ArchivedCopy", "ArchiveLookup",
]
