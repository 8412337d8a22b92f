"""Index directories: manifest, versions, atomic swap, locking and clean-up.

An index is a root directory:
  current -> versions/<version>     symlink, replaced atomically to publish a version
  versions/<version>/manifest.json  what the version holds (format, encoder, counts,
                                    build time, corpus checksum, its segments)
  versions/<version>/anchors.json   the anchor dictionary, when there is one
  segments/<segment>/               immutable passage stores, shared between versions
  .lock                             writers (build, add, compact) hold it exclusively
A new version is written completely, then `current` is swapped; readers keep whatever
version they opened (its files stay valid while mapped, even after clean-up).
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from verifier_core.retrieval.dense import DenseParams
from verifier_core.retrieval.errors import CorruptIndexError, EncoderMismatchError, IndexNotFoundError
from verifier_core.retrieval.sparse import Bm25Params
from verifier_core.retrieval.tokenize import TOKENIZER_NAME

FORMAT_NAME = "side-retrieval-index"
FORMAT_VERSION = 1
KEEP_VERSIONS = 2  # the live one and its predecessor, for readers still on it


@dataclass(frozen=True)
class IndexConfig:
    passage_words: int = 100
    stride: int = 50
    bm25: Bm25Params = field(default_factory=Bm25Params)
    dense: DenseParams = field(default_factory=DenseParams)
    # Added segments are scored with approximate BM25 statistics and searched exactly;
    # once they hold more than this share of the base, everything is compacted into a
    # new base. Growth is geometric, so compaction cost per added passage stays bounded.
    compact_ratio: float = 0.1
    max_delta_segments: int = 16

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "IndexConfig":
        return cls(
            passage_words=data["passage_words"],
            stride=data["stride"],
            bm25=Bm25Params(**data["bm25"]),
            dense=DenseParams(**data["dense"]),
            compact_ratio=data["compact_ratio"],
            max_delta_segments=data["max_delta_segments"],
        )


def new_name(prefix: str) -> str:
    # Sortable by creation time; the random tail keeps two writers in one second apart.
    return f"{prefix}-{datetime.now(timezone.utc):%Y%m%dT%H%M%S%f}-{secrets.token_hex(3)}"


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class IndexRoot:
    def __init__(self, path: str | Path):
        self.path = Path(path)

    @classmethod
    def locate(cls, path: str | Path) -> "IndexRoot":
        """The root of an index given its root, its `current` link or a version folder."""
        path = Path(path)
        if path.is_symlink():
            path = path.resolve()  # DIR/current -> DIR/versions/<version>
        if (path / "current").is_symlink() or (path / "versions").is_dir():
            return cls(path)
        if (path / "manifest.json").is_file() and path.parent.name == "versions":
            return cls(path.parent.parent)
        if not path.exists():
            raise IndexNotFoundError(f"no index at {path}: build one with `manage.py build_index`")
        raise IndexNotFoundError(f"{path} is not a retrieval index (no `current` version)")

    @property
    def segments_dir(self) -> Path:
        return self.path / "segments"

    @property
    def versions_dir(self) -> Path:
        return self.path / "versions"

    def ensure(self) -> None:
        for d in (self.segments_dir, self.versions_dir, self.path / "tmp"):
            d.mkdir(parents=True, exist_ok=True)

    def staging(self, name: str) -> Path:
        return self.path / "tmp" / name

    @contextlib.contextmanager
    def lock(self):
        """Exclusive writer lock (across processes)."""
        self.path.mkdir(parents=True, exist_ok=True)
        with open(self.path / ".lock", "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def current_version(self) -> str | None:
        link = self.path / "current"
        if not link.is_symlink():
            return None
        return Path(os.readlink(link)).name

    def read_manifest(self, version: str | None = None) -> dict:
        version = version or self.current_version()
        if version is None:
            raise IndexNotFoundError(f"{self.path} has no current version: build the index first")
        path = self.versions_dir / version / "manifest.json"
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise CorruptIndexError(f"version {version} has no manifest at {path}") from exc
        except (OSError, ValueError) as exc:
            raise CorruptIndexError(f"manifest {path} is not valid JSON: {exc}") from exc
        check_manifest(manifest, path)
        return manifest

    def publish(self, manifest: dict, anchors_file: Path | None = None) -> str:
        """Writes a new version and makes it current in one atomic rename. Call under lock."""
        version = manifest["version"]
        staged = self.staging(version)
        staged.mkdir(parents=True)
        if anchors_file is not None:
            _link_or_copy(anchors_file, staged / "anchors.json")
        with open(staged / "manifest.json", "w", encoding="utf-8") as handle:
            json.dump(manifest, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        _fsync_dir(staged)
        os.rename(staged, self.versions_dir / version)
        tmp_link = self.path / f".current-{secrets.token_hex(4)}"
        os.symlink(Path("versions") / version, tmp_link)
        os.replace(tmp_link, self.path / "current")  # atomic: readers see old or new
        _fsync_dir(self.path)
        self.collect_garbage()
        return version

    def collect_garbage(self) -> None:
        """Removes versions beyond the last KEEP_VERSIONS and segments none of them use."""
        current = self.current_version()
        versions = sorted(p.name for p in self.versions_dir.iterdir())
        keep = set(versions[-KEEP_VERSIONS:]) | {current}
        used: set[str] = set()
        for name in sorted(keep):
            try:
                used.update(s["name"] for s in self.read_manifest(name)["segments"])
            except (CorruptIndexError, IndexNotFoundError):
                return  # cannot tell what a kept version uses: delete nothing rather than too much
        for name in set(versions) - keep:
            shutil.rmtree(self.versions_dir / name, ignore_errors=True)
        for seg in self.segments_dir.iterdir():
            if seg.name not in used:
                shutil.rmtree(seg, ignore_errors=True)
        shutil.rmtree(self.path / "tmp", ignore_errors=True)
        (self.path / "tmp").mkdir()


_SEGMENT_KEYS = {"name", "kind", "documents", "passages", "dense", "avg_len", "checksum"}
_REQUIRED = ("format_version", "version", "encoder", "tokenizer", "config", "passage_count",
             "document_count", "segments", "corpus_checksum", "created")


def check_manifest(manifest: dict, path: Path) -> None:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise CorruptIndexError(f"{path} is not a {FORMAT_NAME} manifest")
    missing = [k for k in _REQUIRED if k not in manifest]
    if missing:
        raise CorruptIndexError(f"manifest {path} lacks {', '.join(missing)}")
    if manifest["format_version"] != FORMAT_VERSION:
        raise CorruptIndexError(
            f"index format {manifest['format_version']} at {path}; this code reads format "
            f"{FORMAT_VERSION}: rebuild the index with `manage.py build_index`"
        )
    if manifest["tokenizer"] != TOKENIZER_NAME:
        raise CorruptIndexError(
            f"index tokenised with {manifest['tokenizer']!r}, this code uses {TOKENIZER_NAME!r}: rebuild it"
        )
    try:
        IndexConfig.from_json(manifest["config"])
        bad = [s for s in manifest["segments"] if not _SEGMENT_KEYS <= set(s)]
    except (KeyError, TypeError, ValueError) as exc:
        raise CorruptIndexError(f"manifest {path} has a malformed config: {exc!r}") from exc
    if bad:
        raise CorruptIndexError(f"manifest {path} lists a segment without {sorted(_SEGMENT_KEYS)}")
    if sum(s["passages"] for s in manifest["segments"]) != manifest["passage_count"]:
        raise CorruptIndexError(f"manifest {path}: segment passage counts do not add up")


def check_encoder(manifest: dict, name: str, dim: int) -> None:
    built = manifest["encoder"]
    if built.get("name") != name or built.get("dim") != dim:
        raise EncoderMismatchError(
            f"index built with encoder {built.get('name')!r} (dim {built.get('dim')}), but this "
            f"engine encodes queries with {name!r} (dim {dim}); its vectors are not comparable. "
            "Rebuild the index with `manage.py build_index` or load it with the same encoder."
        )


def make_manifest(*, encoder_name: str, dim: int, config: IndexConfig, segments: list[dict],
                  corpus_checksum: str, build_seconds: float, parent: str | None,
                  anchors: bool, synced_through: int | None = None) -> dict:
    return {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "version": new_name("v"),
        "parent": parent,
        "created": now_iso(),
        "build_time_seconds": round(build_seconds, 3),
        "encoder": {"name": encoder_name, "dim": dim},
        "tokenizer": TOKENIZER_NAME,
        "config": config.to_json(),
        "passage_count": sum(s["passages"] for s in segments),
        "document_count": sum(s["documents"] for s in segments),
        "segments": segments,
        "corpus_checksum": corpus_checksum,
        "anchors": "anchors.json" if anchors else None,
        # A replica of a shared passage store: the last passage id it holds (replica.py).
        "synced_through": synced_through,
    }


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)  # versions share an unchanged dictionary without copying it
    except OSError:
        shutil.copyfile(src, dst)


def fsync_tree(path: Path) -> None:
    """Flushes every file of a freshly written folder, so a crash after publishing
    cannot leave a listed segment with missing bytes."""
    for item in path.rglob("*"):
        if item.is_file():
            fd = os.open(item, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    _fsync_dir(path)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def elapsed(since: float) -> float:
    return time.perf_counter() - since
