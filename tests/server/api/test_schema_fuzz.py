"""Schemathesis against the OpenAPI schema of a real ``spieltafel serve`` (issue 12): for every operation,
valid and invalid requests (generated from the schema, signed in with a token) get no 5xx, only the status
codes the operation documents, with the documented content type and body shape; the server prints no error.

The number of examples per operation is ``SCHEMA_FUZZ_EXAMPLES`` (default 25: about a minute with -n 2)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from ..helpers import PASSWORD
from ..processes import Server

EXAMPLES = int(os.environ.get("SCHEMA_FUZZ_EXAMPLES", "25"))
GENEROUS = '{"accounts": "100000/minute", "tables": "100000/minute", "moves": "100000/minute", ' \
    '"sign_in_name": "100000/minute", "sign_in_address": "100000/minute"}'
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    server = Server(tmp_path_factory.mktemp("schema-fuzz") / "data", SPIELTAFEL_RATE_LIMITS=GENEROUS)
    try:
        with httpx.Client(base_url=server.url) as http:
            name = f"fz{uuid.uuid4().hex[:10]}"
            http.post("/api/accounts", json={"name": name, "password": PASSWORD}).raise_for_status()
            http.post("/api/session", json={"name": name, "password": PASSWORD}).raise_for_status()
            token = http.post("/api/tokens").json()["token"]
            body = {"game": "iquazu", "players": 2, "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}]}
            http.post("/api/tables", json=body, headers={"Authorization": f"Bearer {token}"}).raise_for_status()
        yield server, {"Authorization": f"Bearer {token}"}
        assert not server.errors(), "the server printed errors:\n" + "".join(server.errors()[:20])
    finally:
        server.stop()


@pytest.fixture(scope="module")
def api_schema(fuzzed_server: tuple[Server, dict[str, str]]) -> Any:
    server, _ = fuzzed_server
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    return schema


def _fuzz(operation: Any, mode: GenerationMode, server: Server, auth: dict[str, str], seen: list[int]) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        headers = {} if "authorization" in {k.lower() for k in (case.headers or {})} else dict(auth)
        response = case.call(base_url=server.url, headers=headers)
        seen.append(response.status_code)
        case.validate_response(response, checks=CHECKS)

    run()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=str)
def test_every_operation_answers_only_as_documented(
    api_schema: Any, fuzzed_server: tuple[Server, dict[str, str]], mode: GenerationMode
) -> None:
    server, auth = fuzzed_server
    seen: list[int] = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    failures = []
    for operation in operations:
        try:
            _fuzz(operation, mode, server, auth, seen)
        except Unsatisfiable:  # nothing to make invalid: an operation without parameters or body
            assert mode is GenerationMode.NEGATIVE
        except Exception as failure:  # one operation's failure; the others are still fuzzed
            failures.append(f"{operation.method.upper()} {operation.path}: {str(failure)[:1500]}")
    assert not failures, "\n\n".join(failures)
    print(f"schema fuzz ({mode.value}): {len(operations)} operations, {len(seen)} requests, "
          f"statuses {sorted(set(seen))}, 5xx: {sum(s >= 500 for s in seen)}")
    assert len(seen) >= len(operations) and not any(s >= 500 for s in seen)


def test_the_schema_lists_every_api_route(api_schema: Any) -> None:
    operations = {(op.method.upper(), op.path) for op in (r.ok() for r in api_schema.get_all_operations())}
    assert ("POST", "/api/tables/{table_id}/moves") in operations and len(operations) >= 25

