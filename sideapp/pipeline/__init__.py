"""The pipeline: scan -> fetch -> verify -> suggest, declared once in stages.py."""
