"""JSON Schema export for every config file kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox.config.schema import FILE_KINDS

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["schema_documents", "write_schemas"]


def schema_documents() -> dict[str, str]:
    """File name -> JSON text of the schema of each config kind, and of each damage model's tables.

    A model's is ``<model>_model.schema.json``, from the ``SCHEMA`` of its package's ``tables`` module.
    """
    from sandbox.models import table_schemas

    kinds: dict[str, type[BaseModel]] = dict(FILE_KINDS)
    for name, schema in table_schemas().items():
        kinds[f"{name}_model"] = schema
    docs = {}
    for kind, model in kinds.items():
        document = model.model_json_schema()
        document["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        document["$id"] = f"{kind}.schema.json"
        docs[f"{kind}.schema.json"] = json.dumps(document, indent=2, sort_keys=True) + "\n"
    return docs


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema into ``folder`` (created if need be), each file whole or not at all.

    Returns:
        The paths written.

    Raises:
        OSError: The folder cannot be made or written.
    """
    from sandbox.files import atomic_text

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schema_documents().items():
        path = folder / name
        with atomic_text(path) as fh:
            fh.write(text)
        written.append(path)
    return written
