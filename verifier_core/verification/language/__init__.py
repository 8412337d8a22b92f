"""The language rules: content terms, figures and what they are of, units, quantities compared, and mentions in any form."""
