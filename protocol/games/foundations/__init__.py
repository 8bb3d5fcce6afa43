"""FOUNDATIONS' rules (``rules.py``), its level geometry on bitboards (``bits.py``) and a
forward-only copy for fast playouts (``scratch.py``)."""
