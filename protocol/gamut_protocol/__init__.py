"""Every message on Gamut's wire, as pydantic models. Imports nothing else of Gamut's."""
