"""``GET /metrics``: the Prometheus text format (``ops.metrics``), off unless ``SPIELTAFEL_METRICS=true`` and then
only for the addresses in ``SPIELTAFEL_METRICS_ALLOW_IPS``; everyone else gets the same 404 as for no page."""

from __future__ import annotations

import ipaddress

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST

from spieltafel.server.ops.metrics import exposition, sample
from spieltafel.server.services import AllServices


def allowed(request: Request, allow: str) -> bool:
    """Whether the client's address is one of ``allow`` (comma-separated addresses or networks; ``*`` any)."""
    host = request.client.host if request.client else ""
    entries = [entry.strip() for entry in allow.split(",") if entry.strip()]
    if "*" in entries:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    for entry in entries:
        try:
            if address in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request, services: AllServices) -> Response:
    settings = services.settings
    if not settings.metrics or not allowed(request, settings.metrics_allow_ips):
        return Response("Not Found", status_code=404, media_type="text/plain")  # as if there were no such page
    await sample(services.db, services.site.jobs)
    return Response(exposition(), media_type=CONTENT_TYPE_LATEST)
