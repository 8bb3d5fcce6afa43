"""The arena's web service: pages drawn on the server (``html``), who may do what (``auth``), and the
Starlette application with its JSON API (``app``)."""
