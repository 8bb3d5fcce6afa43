"""HARI's rules (``rules.py``) and its step-by-step move entry for GUIs (``steps.py``)."""
