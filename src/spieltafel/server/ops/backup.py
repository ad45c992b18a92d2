"""``spieltafel backup`` and ``spieltafel restore``: a whole site in one file, taken while the server runs.

A backup is a gzipped tar file holding ``manifest.json`` (what kind of site, the schema's migration, when,
how many tables, moves and accounts), the database and the site's ``secret.key`` when the data folder has
one (without it the restored site's sessions and tokens would not be recognised):

- **SQLite** (the embedded site): a copy made through SQLite's online backup API (``sqlite3.Connection.backup``)
  in one step. In WAL mode that reads one consistent snapshot while the server goes on writing: every move
  committed before the backup started is in it, none half-written. The copy passes ``PRAGMA integrity_check``
  before it is packed.
- **PostgreSQL**: ``pg_dump --format=custom`` (one repeatable-read snapshot; the server goes on writing), restored
  with ``pg_restore --single-transaction`` into an empty database. We chose PostgreSQL's own tools over a
  copy through SQLAlchemy because they keep every type, constraint, sequence and index exactly, in one snapshot,
  and are what an operator already knows; they must be installed (Debian: ``postgresql-client``) in a major
  version not older than the server's.

A backup restores only into a site of its own kind, and only into an empty one: restore refuses a data folder
that already has a database, a database that already has tables, a backup of a newer schema than this
Spieltafel knows, and any file that is not a Spieltafel backup, and then changes nothing. The restored site is
migrated to this version's newest schema by the first ``spieltafel serve`` as usual.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from sqlalchemy.engine import make_url

from spieltafel.server.settings import Settings

FORMAT = "spieltafel-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
SQLITE_MEMBER = "spieltafel.db"
POSTGRES_MEMBER = "database.dump"
SECRET_MEMBER = "secret.key"
COUNTED = {"tables": "game_tables", "moves": "moves", "accounts": "accounts"}
MIGRATIONS = Path(__file__).parent.parent / "db" / "migrations" / "versions"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why (nothing was changed)."""


@dataclass
class Manifest:
    """What a backup holds (``manifest.json``)."""

    kind: str
    """``sqlite`` or ``postgresql``."""
    revision: str
    """The schema's Alembic revision when the backup was taken."""
    created: str
    """When, ISO 8601 in UTC."""
    counts: dict[str, int] = field(default_factory=dict)
    """Rows of ``tables``, ``moves`` and ``accounts`` in the backup (SQLite; PostgreSQL: from the same snapshot)."""
    secret_key: bool = False
    """Whether the data folder's ``secret.key`` is inside."""
    format: str = FORMAT
    version: int = FORMAT_VERSION


def known_revisions() -> set[str]:
    """The migrations this Spieltafel ships (a backup of any other schema is refused)."""
    return {path.stem.split("_", 1)[0] for path in MIGRATIONS.glob("[0-9]*.py")}


# --- SQLite -------------------------------------------------------------------------------------------


def sqlite_path(settings: Settings) -> Path:
    """The file of a SQLite site."""
    database = make_url(settings.resolved_database_url()).database
    if not database or database == ":memory:":
        raise BackupError("the database URL names no SQLite file")
    return Path(database)


def _sqlite_facts(connection: sqlite3.Connection) -> tuple[str, dict[str, int]]:
    names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "alembic_version" not in names:
        raise BackupError("this database holds no Spieltafel site (no alembic_version table)")
    revision = str(connection.execute("SELECT version_num FROM alembic_version").fetchone()[0])
    counts = {key: int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])  # fixed names
              for key, table in COUNTED.items() if table in names}
    return revision, counts


def backup_sqlite(source: Path, copy: Path) -> tuple[str, dict[str, int]]:
    """Copy the live database ``source`` to the new file ``copy`` with SQLite's online backup API, in one
    step (one read snapshot: the server's writers are not blocked in WAL mode, and a multi-step copy would
    start over on every write). Returns the copy's schema revision and row counts."""
    if not source.is_file():
        raise BackupError(f"no SQLite database at {source}")
    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=30)
    try:
        reader.execute("PRAGMA busy_timeout = 30000")
        writer = sqlite3.connect(copy)
        try:
            reader.backup(writer)
            writer.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            check = writer.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise BackupError(f"the copy failed SQLite's integrity check: {check}")
            return _sqlite_facts(writer)
        finally:
            writer.close()
    finally:
        reader.close()


# --- PostgreSQL ---------------------------------------------------------------------------------------


def libpq_url(url: str) -> str:
    """The ``postgresql://`` URL that pg_dump and pg_restore understand, from SQLAlchemy's async URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed: a PostgreSQL site is backed up and restored with PostgreSQL's "
                          f"own tools (Debian: apt-get install postgresql-client)")
    return path


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)  # our own arguments
    if done.returncode != 0:
        raise BackupError(f"{what} failed (exit code {done.returncode}): {done.stderr.strip()}")


async def _postgres_facts(url: str, snapshot_into: Path | None = None) -> tuple[str, dict[str, int], int]:
    """The schema revision, the row counts and the number of tables in the public schema. With
    ``snapshot_into``, pg_dump writes the database there from the very snapshot that was counted."""
    import asyncpg  # type: ignore[import-untyped]  # no stubs

    connection = await asyncpg.connect(libpq_url(url))
    try:
        tables = {row[0] for row in await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
        if snapshot_into is None:
            return "", {}, len(tables)
        if "alembic_version" not in tables:
            raise BackupError("this database holds no Spieltafel site (no alembic_version table)")
        async with connection.transaction(isolation="repeatable_read", readonly=True):
            snapshot = await connection.fetchval("SELECT pg_export_snapshot()")
            revision = str(await connection.fetchval("SELECT version_num FROM alembic_version"))
            counts = {key: int(await connection.fetchval(f"SELECT count(*) FROM {table}"))
                      for key, table in COUNTED.items() if table in tables}
            command = [_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
                       f"--snapshot={snapshot}", f"--file={snapshot_into}", f"--dbname={libpq_url(url)}"]
            await asyncio.to_thread(_run, command, "pg_dump")
        return revision, counts, len(tables)
    finally:
        await connection.close()


# --- the archive --------------------------------------------------------------------------------------


def _secret_key(settings: Settings) -> bytes | None:
    path = settings.data_dir / "secret.key"
    return path.read_bytes() if path.is_file() else None


def backup(settings: Settings, out: Path) -> Manifest:
    """Back up the site of ``settings`` into the new file ``out`` (written beside it and renamed at the end,
    so that ``out`` is either complete or absent)."""
    if out.exists():
        raise BackupError(f"{out} exists already: give a new file name")
    if not out.parent.is_dir():
        raise BackupError(f"no folder {out.parent} to write the backup into")
    kind = settings.database_kind()
    if kind not in ("sqlite", "postgresql"):
        raise BackupError(f"cannot back up a {kind} database: SQLite and PostgreSQL only")
    with tempfile.TemporaryDirectory(prefix=".spieltafel-backup-", dir=out.parent) as scratch:
        member = SQLITE_MEMBER if kind == "sqlite" else POSTGRES_MEMBER
        copy = Path(scratch) / member
        if kind == "sqlite":
            revision, counts = backup_sqlite(sqlite_path(settings), copy)
        else:
            revision, counts, _ = asyncio.run(_postgres_facts(settings.resolved_database_url(), copy))
        secret = _secret_key(settings)
        manifest = Manifest(kind, revision, datetime.now(UTC).isoformat(timespec="seconds"), counts, secret is not None)
        partial = Path(scratch) / "backup.tar.gz"
        with tarfile.open(partial, "w:gz") as archive:
            _add_bytes(archive, MANIFEST, json.dumps(asdict(manifest), indent=2).encode())
            archive.add(copy, member)
            if secret is not None:
                _add_bytes(archive, SECRET_MEMBER, secret)
        partial.chmod(0o600)  # it holds the secret key and the accounts' password hashes
        os.replace(partial, out)
    return manifest


def _add_bytes(archive: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o600
    archive.addfile(info, io.BytesIO(data))


def read_manifest(archive: tarfile.TarFile, path: Path) -> Manifest:
    """The manifest of the opened backup ``path``, checked against what this Spieltafel can restore."""
    try:
        member = archive.extractfile(MANIFEST)
        assert member is not None
        data: dict[str, Any] = json.loads(member.read())
        manifest = Manifest(**data)
    except (KeyError, AssertionError, ValueError, TypeError) as error:
        raise BackupError(f"{path} is not a Spieltafel backup (no readable {MANIFEST})") from error
    if manifest.format != FORMAT or manifest.version != FORMAT_VERSION:
        raise BackupError(f"{path} is a backup of format {manifest.format} {manifest.version}, "
                          f"this Spieltafel reads {FORMAT} {FORMAT_VERSION}")
    if manifest.revision not in known_revisions():
        raise BackupError(f"{path} holds schema {manifest.revision}, which this Spieltafel does not know "
                          f"(a newer version's backup): restore it with that version")
    return manifest


def restore(path: Path, settings: Settings) -> Manifest:
    """Restore the backup ``path`` into the empty site of ``settings`` (SQLite: a data folder without a
    database; PostgreSQL: a database without tables). Refused, changing nothing, when the target is not
    empty or not of the backup's kind."""
    if not path.is_file():
        raise BackupError(f"no backup file {path}")
    try:
        archive = tarfile.open(path, "r:gz")  # noqa: SIM115  # closed by the with block below
    except (tarfile.TarError, OSError) as error:
        raise BackupError(f"{path} is not a Spieltafel backup (not a gzipped tar file)") from error
    with archive:
        manifest = read_manifest(archive, path)
        kind = settings.database_kind()
        if kind != manifest.kind:
            how = "--data DIR" if manifest.kind == "sqlite" else "--database-url postgresql+asyncpg://…"
            raise BackupError(f"{path} is a backup of a {manifest.kind} site and restores only into one ({how}), "
                              f"not into {kind}")
        secret = _member(archive, SECRET_MEMBER) if manifest.secret_key else None
        key_path = settings.data_dir / "secret.key"
        if secret is not None and key_path.is_file() and key_path.read_bytes() != secret:
            raise BackupError(f"{key_path} exists with another key: restore into a new data folder")
        with tempfile.TemporaryDirectory(prefix=".spieltafel-restore-") as scratch:
            if kind == "sqlite":
                target = sqlite_path(settings)
                if target.exists():
                    raise BackupError(f"{target} exists already: restore into a new data folder")
                target.parent.mkdir(parents=True, exist_ok=True)
                copy = _extract(archive, SQLITE_MEMBER, Path(scratch))
                staged = target.with_name(f".{target.name}.restoring")
                shutil.copyfile(copy, staged)
                os.replace(staged, target)
            else:
                url = settings.resolved_database_url()
                _, _, tables = asyncio.run(_postgres_facts(url))
                if tables:
                    raise BackupError(f"the database {make_url(url).database} has {tables} tables already: "
                                      f"restore into a new, empty database (createdb)")
                dump = _extract(archive, POSTGRES_MEMBER, Path(scratch))
                _run([_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
                      "--single-transaction", f"--dbname={libpq_url(url)}", str(dump)], "pg_restore")
        if secret is not None and not key_path.is_file():
            settings.data_dir.mkdir(parents=True, exist_ok=True)
            key_path.write_bytes(secret)
            key_path.chmod(0o600)
    return manifest


def _member(archive: tarfile.TarFile, name: str) -> bytes:
    try:
        member = archive.extractfile(name)
    except KeyError as error:
        raise BackupError(f"the backup lacks its {name}") from error
    assert member is not None
    return member.read()


def _extract(archive: tarfile.TarFile, name: str, folder: Path) -> Path:
    target = folder / name
    target.write_bytes(_member(archive, name))
    return target


# --- the commands -------------------------------------------------------------------------------------


def _site(data: Path | None, database_url: str | None) -> Settings:
    given: dict[str, Any] = {"bot_workers": 1}
    if data is not None:
        given["data_dir"] = data
    if database_url is not None:
        given["database_url"] = database_url
    return Settings(**given)


def _describe(manifest: Manifest) -> str:
    counts = ", ".join(f"{value} {key}" for key, value in manifest.counts.items())
    return f"{manifest.kind} site at schema {manifest.revision} ({counts})"


def backup_command(
    out: Annotated[Path, typer.Argument(help="the backup file to write (must not exist)")],
    data: Annotated[Path | None, typer.Option("--data", help="data folder [default: ./spieltafel-data]")] = None,
    database_url: Annotated[str | None, typer.Option(help="SQLAlchemy URL of a PostgreSQL site")] = None,
) -> None:
    """Back up a site (its database and secret key) into one file, while its server runs (docs/deploy.md)."""
    try:
        manifest = backup(_site(data, database_url), out)
    except BackupError as error:
        typer.echo(f"spieltafel backup: {error}", err=True)
        raise typer.Exit(1) from error
    typer.echo(f"Backed up the {_describe(manifest)} into {out}")


def restore_command(
    backup_file: Annotated[Path, typer.Argument(metavar="BACKUP", help="a file written by spieltafel backup")],
    data: Annotated[Path | None, typer.Option("--data", help="new data folder [default: ./spieltafel-data]")] = None,
    database_url: Annotated[str | None, typer.Option(help="SQLAlchemy URL of an empty PostgreSQL database")] = None,
) -> None:
    """Restore a backup into a new data folder (SQLite) or an empty PostgreSQL database (docs/deploy.md)."""
    try:
        manifest = restore(backup_file, _site(data, database_url))
    except BackupError as error:
        typer.echo(f"spieltafel restore: {error}", err=True)
        raise typer.Exit(1) from error
    typer.echo(f"Restored the {_describe(manifest)} from {backup_file}; start it with spieltafel serve")
